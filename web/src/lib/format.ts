// Display formats from the specification: dates as MM/DD/YYYY, times in 24-hour mode.

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
