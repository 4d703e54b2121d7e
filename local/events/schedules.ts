// Fires EventBridge schedule rules (`rate(...)` and `cron(...)`) at their targets, as EventBridge does.
import { resourcesOfType, type Resolver, type StackTemplate } from '../template';

export interface Schedule {
  readonly ruleName: string;
  readonly expression: string;
  readonly targets: Array<{ arn: string; input: unknown }>;
}

export function scheduleRules(stack: StackTemplate, resolver: Resolver): Schedule[] {
  return resourcesOfType(stack, 'AWS::Events::Rule')
    .map(([logicalId, r]) => ({ logicalId, props: resolver.resolve(r.Properties ?? {}) as Record<string, unknown> }))
    .filter(({ props }) => typeof props.ScheduleExpression === 'string' && props.State !== 'DISABLED')
    .map(({ logicalId, props }) => ({
      ruleName: (props.Name as string) ?? logicalId,
      expression: props.ScheduleExpression as string,
      targets: ((props.Targets as Array<Record<string, unknown>>) ?? []).map((t) => ({
        arn: String(t.Arn),
        input: typeof t.Input === 'string' ? JSON.parse(t.Input) : undefined,
      })),
    }));
}

const UNITS: Record<string, number> = {
  minute: 60_000,
  minutes: 60_000,
  hour: 3_600_000,
  hours: 3_600_000,
  day: 86_400_000,
  days: 86_400_000,
};
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** Milliseconds between firings of a `rate(...)` expression, or null when it is not one. */
export function rateInterval(expression: string): number | null {
  const m = /^rate\((\d+)\s+(minutes?|hours?|days?)\)$/.exec(expression.trim());
  return m ? Number(m[1]) * UNITS[m[2]] : null;
}

type FieldMatcher = (value: number) => boolean;

function field(spec: string, min: number, max: number, names: string[] = [], offset = 0): FieldMatcher {
  if (spec === '*' || spec === '?') return () => true;
  const toNumber = (token: string) => {
    const i = names.indexOf(token.toUpperCase());
    const n = i >= 0 ? i + offset : Number(token);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`'${token}' is out of range ${min}-${max}`);
    return n;
  };
  const parts = spec.split(',').map((part) => {
    const [range, step] = part.split('/');
    const every = step === undefined ? 1 : Number(step);
    if (!Number.isInteger(every) || every < 1) throw new Error(`bad step in '${part}'`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [min, max];
    else if (range.includes('-')) [lo, hi] = range.split('-').map(toNumber) as [number, number];
    else [lo, hi] = [toNumber(range), step === undefined ? toNumber(range) : max];
    return (v: number) => v >= lo && v <= hi && (v - lo) % every === 0;
  });
  return (v) => parts.some((p) => p(v));
}

/** A matcher for `cron(min hour day-of-month month day-of-week year)`, in UTC, minute resolution. */
export function cronMatcher(expression: string): (date: Date) => boolean {
  const m = /^cron\((.+)\)$/.exec(expression.trim());
  if (!m) throw new Error(`not a cron expression: ${expression}`);
  const fields = m[1].trim().split(/\s+/);
  if (fields.length !== 6) throw new Error(`cron needs 6 fields, got ${fields.length}: ${expression}`);
  const [minute, hour, dom, month, dow, year] = fields;
  if (/[LW]/.test(dom) || /\d+L|^L$|#/.test(dow)) throw new Error(`cron L, W and # are not supported locally: ${expression}`);
  const match = {
    minute: field(minute, 0, 59),
    hour: field(hour, 0, 23),
    dom: field(dom, 1, 31),
    month: field(month, 1, 12, MONTHS, 1),
    dow: field(dow, 1, 7, DAYS, 1),
    year: field(year, 1970, 2199),
  };
  return (d) =>
    match.minute(d.getUTCMinutes()) &&
    match.hour(d.getUTCHours()) &&
    match.dom(d.getUTCDate()) &&
    match.month(d.getUTCMonth() + 1) &&
    match.dow(d.getUTCDay() + 1) &&
    match.year(d.getUTCFullYear());
}

export function scheduledEvent(schedule: Schedule, stack: StackTemplate, time: Date) {
  return {
    version: '0',
    id: crypto.randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: stack.account,
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: stack.region,
    resources: [`arn:aws:events:${stack.region}:${stack.account}:rule/${schedule.ruleName}`],
    detail: {},
  };
}

/**
 * Starts the timers; returns a function that stops them. `timeScale` (tests only, see RuntimeOptions
 * scheduleTimeScale) divides every rate(...) period: the same rules fire the same targets, sooner. Cron rules
 * keep their wall-clock minutes.
 */
export function startSchedules(
  schedules: Schedule[],
  stack: StackTemplate,
  fire: (targetArn: string, event: unknown) => void,
  onError: (message: string) => void,
  timeScale = 1,
): () => void {
  if (!(timeScale >= 1)) throw new Error(`schedule time scale must be at least 1, got ${timeScale}`);
  const timers: NodeJS.Timeout[] = [];
  const cronRules: Array<{ schedule: Schedule; matches: (d: Date) => boolean }> = [];
  const fireAll = (schedule: Schedule, time: Date) => {
    for (const t of schedule.targets) fire(t.arn, t.input ?? scheduledEvent(schedule, stack, time));
  };
  for (const schedule of schedules) {
    const interval = rateInterval(schedule.expression);
    if (interval !== null) {
      timers.push(setInterval(() => fireAll(schedule, new Date()), Math.max(1, Math.round(interval / timeScale))));
      continue;
    }
    try {
      cronRules.push({ schedule, matches: cronMatcher(schedule.expression) });
    } catch (err) {
      onError(`schedule ${schedule.ruleName}: ${(err as Error).message}`);
    }
  }
  if (cronRules.length) {
    let last = Math.floor(Date.now() / 60_000);
    timers.push(
      setInterval(() => {
        const minute = Math.floor(Date.now() / 60_000);
        for (let m = last + 1; m <= minute; m++) {
          const time = new Date(m * 60_000);
          for (const { schedule, matches } of cronRules) if (matches(time)) fireAll(schedule, time);
        }
        last = minute;
      }, 5_000),
    );
  }
  return () => timers.forEach(clearInterval);
}
