// Feature flags, named once: the deployment chooses a value per flag (infra/config.ts), the api function reads
// the choice from its environment and answers it in the app config, and the SPA reads it from config.json.
// A flag's value is an experiment's answer: "on" means enabled, "control" means the default (off).

export const FEATURE_FLAG_VALUES = ['on', 'control'] as const;
export type FeatureFlagValue = (typeof FEATURE_FLAG_VALUES)[number];

/** Every flag with the value it has when the deployment does not choose one. */
export const FEATURE_FLAG_DEFAULTS = {
  /** The notification bell in the top bar (and the notification centre it opens). */
  ENABLE_NOTIFICATION_CENTER: 'on',
  /** Correlation-rule pages open full page: the header is hidden and the content takes the full width. */
  ENABLE_CORRELATION_RULE_FULL_PAGE_VIEW: 'control',
  /** Custom dashboards: their pages, and the dashboard home's choice (which then counts DataAnalyticsRead). */
  ENABLE_CUSTOM_DASHBOARDS: 'control',
  /** An alert's log-type access is gated by role-based access to the log types. */
  ENABLE_ALERT_RBAC_LOG_TYPES: 'control',
  /** The Torq destination type: offered in the destination chooser and accepted by the API. */
  ENABLE_TORQ_DESTINATION: 'control',
} as const satisfies Record<string, FeatureFlagValue>;

export type FeatureFlagName = keyof typeof FEATURE_FLAG_DEFAULTS;
export const FEATURE_FLAG_NAMES = Object.keys(FEATURE_FLAG_DEFAULTS) as FeatureFlagName[];

/** What a deployment chooses: a value for some flags; the others keep their defaults. */
export type FeatureFlagChoices = Readonly<Partial<Record<FeatureFlagName, FeatureFlagValue>>>;
/** Every flag with its value. */
export type FeatureFlags = Readonly<Record<FeatureFlagName, FeatureFlagValue>>;

function isFeatureFlagName(name: string): name is FeatureFlagName {
  return Object.prototype.hasOwnProperty.call(FEATURE_FLAG_DEFAULTS, name);
}

function isFeatureFlagValue(value: unknown): value is FeatureFlagValue {
  return (FEATURE_FLAG_VALUES as readonly unknown[]).includes(value);
}

/** The problems of a deployment's choices (empty when valid): an unknown flag, or a value other than on or control. */
export function featureFlagProblems(choices: unknown): string[] {
  if (typeof choices !== 'object' || choices === null || Array.isArray(choices)) {
    return ['featureFlags must map flag names to "on" or "control"'];
  }
  const problems: string[] = [];
  for (const [name, value] of Object.entries(choices)) {
    if (!isFeatureFlagName(name)) problems.push(`featureFlags names an unknown flag '${name}'`);
    else if (!isFeatureFlagValue(value)) problems.push(`featureFlags.${name} must be "on" or "control"`);
  }
  return problems;
}

/**
 * Every flag's value: the deployment's choice where it made a valid one, else the default. Unknown names and
 * values are ignored, so a stale or hand-edited setting never turns a flag into anything but on or control.
 */
export function resolveFeatureFlags(choices?: unknown): FeatureFlags {
  const flags: Record<FeatureFlagName, FeatureFlagValue> = { ...FEATURE_FLAG_DEFAULTS };
  if (typeof choices === 'object' && choices !== null) {
    for (const [name, value] of Object.entries(choices)) {
      if (isFeatureFlagName(name) && isFeatureFlagValue(value)) flags[name] = value;
    }
  }
  return flags;
}

/** Reads the choices written as JSON (the api function's environment); unreadable text counts as no choice. */
export function parseFeatureFlags(json: string | undefined): FeatureFlags {
  if (json === undefined) return resolveFeatureFlags();
  try {
    return resolveFeatureFlags(JSON.parse(json) as unknown);
  } catch {
    return resolveFeatureFlags();
  }
}

/** Whether a flag is enabled: only "on" is; "control" is the default, off. */
export function isFeatureEnabled(flags: FeatureFlags, name: FeatureFlagName): boolean {
  return flags[name] === 'on';
}
