// Display formats from the specification: dates as MM/DD/YYYY, times in 24-hour mode, counts in K, M, B and t.

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

/** "11/21/2026 14:05 UTC"; the input unchanged when it is not a date. */
export function formatDateTimeUtc(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = `${twoDigits(date.getUTCMonth() + 1)}/${twoDigits(date.getUTCDate())}/${date.getUTCFullYear()}`;
  return `${day} ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`;
}

const COUNT_UNITS = ['', 'K', 'M', 'B', 't'];

/** A count in base 1000 with K, M, B and t: 999, "1.2K", "3.5M", "1B". */
export function formatCount(count: number): string {
  if (!Number.isFinite(count)) return String(count);
  const sign = count < 0 ? '-' : '';
  let value = Math.abs(count);
  let unit = 0;
  while (value >= 1000 && unit < COUNT_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  let rounded = Math.round(value * 10) / 10;
  if (rounded >= 1000 && unit < COUNT_UNITS.length - 1) {
    rounded = 1;
    unit += 1;
  }
  return `${sign}${unit === 0 ? Math.round(rounded) : rounded}${COUNT_UNITS[unit]}`;
}
