// A scheduled query's form values and the panther-analysis document (AnalysisType scheduled_query) they stand
// for, both ways, and the save checks the form shows inline (from core/detections, the rules the server applies
// on save): a query that returns events must contain a LIMIT clause, a query without a time placeholder is
// flagged, rate or cron, the timeout's bounds. Keys the form does not show are kept.
import { stringify } from 'yaml';
import {
  MAX_QUERY_TIMEOUT_MINUTES,
  nextRunTime,
  queryNameProblem,
  queryOf,
  queryProblems,
  queryWarnings,
  requiresLimitClause,
  type QueryLanguage,
} from '../../../../../core/detections';
import { readYaml } from '../../../../../core/yaml';

/** The rates a schedule offers, in minutes. */
export const RATE_OPTIONS = [15, 30, 60, 180, 720, 1440] as const;
/** The default cron schedule: every day at midnight. */
export const DEFAULT_CRON = '0 0 * * *';
/** A new scheduled query's rate and timeout, in minutes. */
export const DEFAULT_RATE_MINUTES = 15;
export const DEFAULT_TIMEOUT_MINUTES = 2;

/** The cron schedule's five fields, as the form names them. */
export interface CronFields {
  minutes: string;
  hours: string;
  days: string;
  months: string;
  weekDays: string;
}

export const CRON_FIELDS: readonly { key: keyof CronFields; label: string; hint: string }[] = [
  { key: 'minutes', label: 'Minutes', hint: '0-59' },
  { key: 'hours', label: 'Hours', hint: '0-23' },
  { key: 'days', label: 'Days', hint: '1-31' },
  { key: 'months', label: 'Months', hint: '1-12 or JAN-DEC' },
  { key: 'weekDays', label: 'Week days', hint: '0-6 or SUN-SAT' },
];

export const cronFields = (expression: string): CronFields => {
  const [minutes = '*', hours = '*', days = '*', months = '*', weekDays = '*'] = expression.trim().split(/\s+/);
  return { minutes, hours, days, months, weekDays };
};
export const cronExpression = (c: CronFields) =>
  [c.minutes, c.hours, c.days, c.months, c.weekDays].map((f) => f.trim() || '*').join(' ');

export interface ScheduledQueryValues {
  name: string;
  description: string;
  enabled: boolean;
  tags: string[];
  language: QueryLanguage;
  query: string;
  scheduleMode: 'rate' | 'cron';
  rateMinutes: number;
  cron: CronFields;
  timeoutMinutes: number;
  /** Document keys the form does not show (Lookback, LookbackWindowSeconds, ...), kept as they were. */
  extra: Record<string, unknown>;
}

export const SQL_TEMPLATE = `SELECT *
FROM panther_logs.public.aws_cloudtrail
WHERE p_occurs_since('1 hour')
LIMIT 1000
`;

export const PANTHERFLOW_TEMPLATE = `panther_logs.public.aws_cloudtrail
| where p_event_time > time.ago(1h)
| limit 1000
`;

export function emptyScheduledQuery(): ScheduledQueryValues {
  return {
    name: '',
    description: '',
    enabled: true,
    tags: [],
    language: 'SQL',
    query: SQL_TEMPLATE,
    scheduleMode: 'rate',
    rateMinutes: DEFAULT_RATE_MINUTES,
    cron: cronFields(DEFAULT_CRON),
    timeoutMinutes: DEFAULT_TIMEOUT_MINUTES,
    extra: {},
  };
}

const SHOWN = new Set([
  'AnalysisType',
  'QueryName',
  'Description',
  'Enabled',
  'Tags',
  'Query',
  'AthenaQuery',
  'SnowflakeQuery',
  'PantherFlowQuery',
  'Schedule',
]);

/** The form's values for a stored scheduled query document. */
export function scheduledQueryValues(yamlText: string): ScheduledQueryValues {
  const doc = (readYaml(yamlText) ?? {}) as Record<string, unknown>;
  const query = queryOf(doc);
  const schedule = (doc.Schedule && typeof doc.Schedule === 'object' ? doc.Schedule : {}) as Record<string, unknown>;
  const cron = typeof schedule.CronExpression === 'string' ? schedule.CronExpression : undefined;
  const extra = Object.fromEntries(Object.entries(doc).filter(([k]) => !SHOWN.has(k)));
  // A SQL query written under AthenaQuery or SnowflakeQuery is written back under the same key.
  if (query && query.key !== 'Query' && query.key !== 'PantherFlowQuery') extra.__queryKey = query.key;
  return {
    name: typeof doc.QueryName === 'string' ? doc.QueryName : '',
    description: typeof doc.Description === 'string' ? doc.Description : '',
    enabled: doc.Enabled === true,
    tags: Array.isArray(doc.Tags) ? doc.Tags.map(String) : [],
    language: query?.language ?? 'SQL',
    query: query?.text ?? '',
    scheduleMode: cron !== undefined ? 'cron' : 'rate',
    rateMinutes: typeof schedule.RateMinutes === 'number' ? schedule.RateMinutes : DEFAULT_RATE_MINUTES,
    cron: cronFields(cron ?? DEFAULT_CRON),
    timeoutMinutes: typeof schedule.TimeoutMinutes === 'number' ? schedule.TimeoutMinutes : DEFAULT_TIMEOUT_MINUTES,
    extra,
  };
}

/** The document's keys for the form's values (the spec the checks read). */
export function scheduledQuerySpec(values: ScheduledQueryValues): Record<string, unknown> {
  const { __queryKey, ...extra } = values.extra;
  const key = values.language === 'PANTHERFLOW' ? 'PantherFlowQuery' : typeof __queryKey === 'string' ? __queryKey : 'Query';
  const spec: Record<string, unknown> = {
    AnalysisType: 'scheduled_query',
    QueryName: values.name.trim(),
    Enabled: values.enabled,
    [key]: values.query,
    Schedule: {
      ...(values.scheduleMode === 'rate' ? { RateMinutes: values.rateMinutes } : { CronExpression: cronExpression(values.cron) }),
      TimeoutMinutes: values.timeoutMinutes,
    },
  };
  if (values.description.trim()) spec.Description = values.description.trim();
  if (values.tags.length) spec.Tags = values.tags;
  return { ...spec, ...Object.fromEntries(Object.entries(extra).filter(([k]) => !(k in spec))) };
}

export const scheduledQueryYaml = (values: ScheduledQueryValues) => stringify(scheduledQuerySpec(values), { lineWidth: 0 });

export interface ScheduledQueryChecks {
  /** Problems that block a save, by field: `name`, `query`, `schedule`, `timeout`. */
  readonly errors: Readonly<Partial<Record<'name' | 'query' | 'schedule' | 'timeout', string>>>;
  /** Flagged but saved (a query without a time placeholder). */
  readonly warnings: readonly string[];
  /** The query returns events, so it must contain a LIMIT clause. */
  readonly requiresLimit: boolean;
  /** When it would run next (epoch ms), when the schedule is usable. */
  readonly nextRun?: number;
}

/** The save checks of the form's values, as the server applies them. */
export function scheduledQueryChecks(values: ScheduledQueryValues, now = Date.now()): ScheduledQueryChecks {
  const spec = scheduledQuerySpec(values);
  const errors: Partial<Record<'name' | 'query' | 'schedule' | 'timeout', string>> = {};
  const nameProblem = queryNameProblem(values.name);
  if (nameProblem) errors.name = nameProblem;
  if (values.scheduleMode === 'rate' && (!Number.isInteger(values.rateMinutes) || values.rateMinutes < 2))
    errors.schedule = 'Schedule RateMinutes must be an integer of at least 2';
  if (!Number.isInteger(values.timeoutMinutes) || values.timeoutMinutes < 1 || values.timeoutMinutes > MAX_QUERY_TIMEOUT_MINUTES)
    errors.timeout = `TimeoutMinutes must be from 1 to ${MAX_QUERY_TIMEOUT_MINUTES}`;
  for (const problem of queryProblems('scheduled_query', spec)) {
    const field = problem.path.startsWith('Schedule.TimeoutMinutes')
      ? 'timeout'
      : problem.path.startsWith('Schedule')
        ? 'schedule'
        : 'query';
    errors[field] ??= problem.message;
  }
  let nextRun: number | undefined;
  if (!errors.schedule) {
    try {
      nextRun = nextRunTime(spec.Schedule as Record<string, number | string>, now);
    } catch (e) {
      errors.schedule = (e as Error).message;
    }
  }
  return { errors, warnings: queryWarnings(spec), requiresLimit: requiresLimitClause(spec), nextRun };
}
