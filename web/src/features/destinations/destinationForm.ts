// The destination form's values, their rules (core's, as the server checks them) and the API input they make.
import { ALERT_SEVERITIES, ALERT_TYPES, type AlertSeverity, type AlertType } from '../../../../core/alerts/model';
import {
  DESTINATION_TYPE_INFO,
  MASKED_SECRET,
  MESSAGES,
  validateDestination,
  type CustomHeader,
  type DestinationField,
  type DestinationType,
  type SeverityConfigRow,
} from '../../../../core/destinations';
import { coreProblems } from '../../lib/forms/coreRule';
import type { DestinationFieldsFragment, DestinationInput } from '../../lib/graphql/types';

export type ConfigFormValue = string | boolean | string[] | CustomHeader[] | SeverityConfigRow[];

export interface DestinationFormValues {
  outputType: DestinationType;
  displayName: string;
  defaultForSeverity: AlertSeverity[];
  alertTypes: AlertType[];
  logTypes: string[];
  config: Record<string, ConfigFormValue>;
}

/** A new destination takes the more severe alerts of every type by default. */
export const DEFAULT_SEVERITIES: readonly AlertSeverity[] = ['CRITICAL', 'HIGH', 'MEDIUM'];

/** The destination's config as the API answers it (AWSJSON: text holding JSON, or already parsed). */
export function configOf(destination: Pick<DestinationFieldsFragment, 'outputConfig'>): Record<string, unknown> {
  const raw = destination.outputConfig;
  if (typeof raw === 'string') {
    try {
      const parsed = JSON.parse(raw) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
}

function emptyValue(field: DestinationField): ConfigFormValue {
  switch (field.kind) {
    case 'boolean':
      return typeof field.defaultValue === 'boolean' ? field.defaultValue : false;
    case 'list':
    case 'headers':
      return [];
    case 'severityConfig':
      return ALERT_SEVERITIES.map((severity) => ({ severity, projectKey: '', issueType: '', assigneeId: '' }));
    case 'select':
      return typeof field.defaultValue === 'string' ? field.defaultValue : '';
    default:
      return typeof field.defaultValue === 'string' ? field.defaultValue : '';
  }
}

export function initialValues(type: DestinationType, destination?: DestinationFieldsFragment): DestinationFormValues {
  const saved = destination ? configOf(destination) : {};
  const config: Record<string, ConfigFormValue> = {};
  for (const field of DESTINATION_TYPE_INFO[type].fields) {
    const value = saved[field.name];
    config[field.name] = value === undefined || value === null ? emptyValue(field) : (value as ConfigFormValue);
  }
  return {
    outputType: type,
    displayName: destination?.displayName ?? '',
    defaultForSeverity: destination ? [...destination.defaultForSeverity] : [...DEFAULT_SEVERITIES],
    alertTypes: destination ? [...destination.alertTypes] : [...ALERT_TYPES],
    logTypes: destination ? [...destination.logTypes] : [],
    config,
  };
}

export interface DestinationFormContext {
  readonly torqEnabled: boolean;
  /** Editing a saved destination: a secret left masked keeps its saved value. */
  readonly editing: boolean;
  /** Display names (lowercased) of the other destinations. */
  readonly takenNames: ReadonlySet<string>;
}

/** Core's rules over the whole form, and the name other destinations hold. */
export function destinationSchema(context: DestinationFormContext) {
  return coreProblems<DestinationFormValues>((values) => {
    const problems = [...validateDestination(values, { torqEnabled: context.torqEnabled, maskedKeepsSaved: context.editing })];
    // Formik hands yup empty text as undefined.
    const name = (values.displayName ?? '').trim().toLowerCase();
    if (name && context.takenNames.has(name) && !problems.some((p) => p.path === 'displayName')) {
      problems.push({ path: 'displayName', message: MESSAGES.displayNameTaken });
    }
    return problems;
  });
}

/** The API input: text trimmed, empty optional values left out, the config as AWSJSON text. */
export function destinationInput(values: DestinationFormValues): DestinationInput {
  const config: Record<string, ConfigFormValue> = {};
  for (const field of DESTINATION_TYPE_INFO[values.outputType].fields) {
    const value = values.config[field.name];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    if (field.kind === 'severityConfig') {
      const rows = (value as SeverityConfigRow[]).map((row) => ({
        severity: row.severity,
        projectKey: (row.projectKey ?? '').trim(),
        issueType: (row.issueType ?? '').trim(),
        assigneeId: (row.assigneeId ?? '').trim(),
      }));
      if (rows.some((row) => row.projectKey || row.issueType || row.assigneeId)) config[field.name] = rows;
      continue;
    }
    config[field.name] = typeof value === 'string' && field.kind !== 'secret' ? value.trim() : value;
  }
  return {
    outputType: values.outputType,
    displayName: values.displayName.trim(),
    defaultForSeverity: values.defaultForSeverity,
    alertTypes: values.alertTypes,
    logTypes: values.logTypes,
    outputConfig: JSON.stringify(config),
  };
}

export { MASKED_SECRET };
