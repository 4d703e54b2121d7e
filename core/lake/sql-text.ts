// Text made into SQL for the lake's engines (Athena, and DuckDB locally): the one place quotes are doubled.
// Every name and every text the platform writes into a query goes through these, whoever wrote it.

/** A name as SQL: in double quotes, a double quote inside doubled. */
export const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A text as an SQL string: in single quotes, a single quote inside doubled. */
export const quoteString = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** An instant as a timestamp literal of the lake's time columns (UTC, milliseconds). */
export function timestampLiteral(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `TIMESTAMP '${iso.slice(0, 10)} ${iso.slice(11, 23)}'`;
}
