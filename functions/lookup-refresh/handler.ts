// The lookup-refresh function, run every 15 minutes: refreshes each lookup table whose refresh period has
// passed (S3 objects, scheduled queries). A failed refresh keeps the table's last good data and raises a
// LOOKUP_TABLE_REFRESH system alert (see ../lib/lookups).
import { refreshDueTables } from '../lib/lookups';

export async function handler(): Promise<{ refreshed: number }> {
  const refreshed = await refreshDueTables(new Date(), (line) => console.log(line));
  return { refreshed };
}
