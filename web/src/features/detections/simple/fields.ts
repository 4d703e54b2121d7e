// The fields a condition can target, as the filterFields query answers them, and how they load.
export interface FilterFieldOption {
  readonly target: string;
  /** `string`, `int`, `ip[]`, ... (core/detections/simple parseFieldType reads it). */
  readonly type: string;
  readonly description: string;
}

export interface FilterFieldsState {
  readonly fields: readonly FilterFieldOption[];
  readonly loading: boolean;
  /** Set when the fields could not be loaded. */
  readonly error?: string;
}

/** The message shown when the fields cannot be loaded. */
export const FILTERS_LOAD_ERROR = 'There was a problem loading the filters';
