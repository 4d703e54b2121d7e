// When a scheduled detection (scheduled query or correlation rule) runs next: its Schedule's RateMinutes
// (every N minutes, counted from the epoch so every instance agrees) or CronExpression (five fields:
// minute hour day-of-month month day-of-week, UTC; *, lists, ranges, steps, month and day names). Pure: the
// scheduler (functions/lib/runs) keeps one next-run item per detection keyed by this time; the editor and the
// save checks read the same rules.

export interface DetectionSchedule {
  RateMinutes?: number;
  CronExpression?: string;
  TimeoutMinutes?: number;
}

const MINUTE = 60_000;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** The values (as a set) a cron field allows, or an error naming the field. */
function cronField(spec: string, name: string, min: number, max: number, names: string[] = [], offset = 0): Set<number> {
  const number = (token: string) => {
    const i = names.indexOf(token.toUpperCase());
    const n = i >= 0 ? i + offset : /^\d+$/.test(token) ? Number(token) : NaN;
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`CronExpression ${name} '${token}' must be from ${min} to ${max}`);
    return n;
  };
  const values = new Set<number>();
  for (const part of spec.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined || range === '') throw new Error(`CronExpression ${name} '${part}' is not valid`);
    const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) ? Number(stepText) : NaN;
    if (!Number.isInteger(step) || step < 1)
      throw new Error(`CronExpression ${name} step in '${part}' must be a whole number of at least 1`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [min, max];
    else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (more !== undefined) throw new Error(`CronExpression ${name} '${part}' is not valid`);
      [lo, hi] = [number(a), number(b)];
      if (lo > hi) throw new Error(`CronExpression ${name} range '${range}' runs backwards`);
    } else [lo, hi] = [number(range), stepText === undefined ? number(range) : max];
    for (let v = lo; v <= hi; v += step) values.add(v);
  }
  return values;
}

export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekDays: Set<number>;
  /** Day-of-month and day-of-week both restricted: either may match (as cron does). */
  eitherDay: boolean;
}

/** A five-field cron expression; throws an Error with the reason when it is not one. */
export function parseCron(expression: string): Cron {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`CronExpression needs 5 fields (minute hour day month weekday), got ${fields.length}`);
  const [minute, hour, day, month, weekDay] = fields;
  const weekDays = cronField(weekDay, 'weekday', 0, 7, DAYS);
  if (weekDays.delete(7)) weekDays.add(0);
  return {
    minutes: cronField(minute, 'minute', 0, 59),
    hours: cronField(hour, 'hour', 0, 23),
    days: cronField(day, 'day', 1, 31),
    months: cronField(month, 'month', 1, 12, MONTHS, 1),
    weekDays,
    eitherDay: day !== '*' && weekDay !== '*',
  };
}

function dayMatches(cron: Cron, date: Date): boolean {
  const dom = cron.days.has(date.getUTCDate());
  const dow = cron.weekDays.has(date.getUTCDay());
  return cron.eitherDay ? dom || dow : dom && dow;
}

/** The first time strictly after `after` (epoch ms) the cron fires, on a whole minute; null within 5 years none. */
export function nextCronTime(cron: Cron, after: number): number | null {
  let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  const limit = after + 5 * 366 * 24 * 60 * MINUTE;
  while (t <= limit) {
    const d = new Date(t);
    if (!cron.months.has(d.getUTCMonth() + 1) || !dayMatches(cron, d)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
      continue;
    }
    if (!cron.hours.has(d.getUTCHours())) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
      continue;
    }
    if (cron.minutes.has(d.getUTCMinutes())) return t;
    t += MINUTE;
  }
  return null;
}

/** When a detection with this Schedule runs next after `after` (epoch ms); throws on an unusable Schedule. */
export function nextRunTime(schedule: DetectionSchedule, after: number): number {
  if (schedule.RateMinutes !== undefined) {
    const rate = schedule.RateMinutes;
    if (!Number.isInteger(rate) || rate < 2) throw new Error('Schedule RateMinutes must be an integer of at least 2');
    const every = rate * MINUTE;
    return Math.floor(after / every) * every + every;
  }
  if (typeof schedule.CronExpression === 'string') {
    const next = nextCronTime(parseCron(schedule.CronExpression), after);
    if (next === null) throw new Error(`CronExpression ${schedule.CronExpression} never fires`);
    return next;
  }
  throw new Error('Schedule needs RateMinutes or CronExpression');
}

/** The window a run at `runAt` covers: from the previous run time (by the schedule) to `runAt`. */
export function runWindow(schedule: DetectionSchedule, runAt: number): { start: number; end: number } {
  if (schedule.RateMinutes !== undefined) return { start: runAt - schedule.RateMinutes * MINUTE, end: runAt };
  // For a cron, the previous firing: search back 1, 2, 4, ... days until a firing lands before runAt.
  const cron = parseCron(String(schedule.CronExpression));
  for (let back = 1; back <= 8 * 366; back *= 2) {
    let t: number | null = runAt - back * 24 * 60 * MINUTE - MINUTE;
    let previous: number | undefined;
    while (t !== null && t < runAt) {
      t = nextCronTime(cron, t);
      if (t !== null && t < runAt) previous = t;
    }
    if (previous !== undefined) return { start: previous, end: runAt };
  }
  throw new Error(`CronExpression ${String(schedule.CronExpression)} never fires`);
}
