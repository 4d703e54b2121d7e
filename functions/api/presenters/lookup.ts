// Lookup data as the API answers it: each row as JSON text (a preview's rows, a tested value's row).
import type { DataPreview } from '../../lib/lookups';
import type * as Api from '../../lib/graphql-types';

export const toApiLookupPreview = (preview: DataPreview): Api.LookupDataPreview => ({
  ...preview,
  rows: preview.rows.map((row) => JSON.stringify(row)),
});

export const toApiLookupTestResult = (result: { matched: boolean; row: object | null }): Api.LookupTestResult => ({
  matched: result.matched,
  row: result.row && JSON.stringify(result.row),
});
