// The fields a simple detection's or an inline filter's conditions can target, for the chosen log types: each
// log type's schema fields (managed from core, custom from the schemas area), the standard p_* fields, and the
// fields all the log types share.
import {
  PANTHER_MANAGED_FIELDS,
  schemaFilterFields,
  isUnsafeFieldType,
  sharedFilterFields,
  type FilterField,
} from '../../../core/detections/simple';
import { managedSchema } from '../../../core/schemas';
import { ApiError } from '../errors';
import { customSchemaSpecs } from '../schemas';

/** Log types one request may name. */
export const MAX_FILTER_LOG_TYPES = 50;

export interface FilterFields {
  readonly pantherManaged: readonly FilterField[];
  readonly filtersByLogType: readonly { readonly logType: string; readonly filters: readonly FilterField[] }[];
  readonly shared: readonly FilterField[];
  /** Every field once: the standard ones, then each log type's in order (the first log type naming a target wins). */
  readonly flatFields: readonly FilterField[];
}

function logTypesOf(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !v.trim() || v.length > 255))
    throw new ApiError('InvalidInput', 'logTypes must be a list of log type names');
  if (value.length > MAX_FILTER_LOG_TYPES)
    throw new ApiError('InvalidInput', `logTypes may name at most ${MAX_FILTER_LOG_TYPES} log types`);
  return [...new Set((value as string[]).map((v) => v.trim()))];
}

/**
 * The filter fields of the log types; a log type without a schema has no fields of its own. Fields of unsafe
 * types (objects, json and arrays of them: isUnsafeFieldType) are listed only with showUnsafeTypes.
 */
export async function filterFields(logTypes: unknown, showUnsafeTypes: unknown = false): Promise<FilterFields> {
  const names = logTypesOf(logTypes);
  if (showUnsafeTypes !== undefined && showUnsafeTypes !== null && typeof showUnsafeTypes !== 'boolean')
    throw new ApiError('InvalidInput', 'showUnsafeTypes must be true or false');
  const keep = (fields: readonly FilterField[]) =>
    showUnsafeTypes === true ? [...fields] : fields.filter((f) => !isUnsafeFieldType(f.type));
  const custom = new Map((await customSchemaSpecs(names)).map((s) => [s.name.toLowerCase(), s.spec]));
  const filtersByLogType = names.map((logType) => {
    const spec = managedSchema(logType) ?? custom.get(logType.toLowerCase());
    return { logType, filters: spec ? keep(schemaFilterFields(logType, spec)) : [] };
  });
  const pantherManaged = keep(PANTHER_MANAGED_FIELDS);
  const seen = new Set(pantherManaged.map((f) => f.target));
  const flatFields = [...pantherManaged];
  for (const { filters } of filtersByLogType)
    for (const field of filters) {
      if (seen.has(field.target)) continue;
      seen.add(field.target);
      flatFields.push(field);
    }
  return {
    pantherManaged,
    filtersByLogType,
    shared: sharedFilterFields(filtersByLogType.map((l) => l.filters)),
    flatFields,
  };
}
