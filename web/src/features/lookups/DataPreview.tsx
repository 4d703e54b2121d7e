import { Alert, Stack, Table, Text } from '@mantine/core';

export interface PreviewData {
  readonly columns: readonly { readonly name: string; readonly type: string }[];
  /** AWSJSON: each row a JSON text (or the parsed object). */
  readonly rows: readonly unknown[];
  readonly rowCount: number;
  readonly skippedCount: number;
  readonly skipped: readonly { readonly row: number; readonly reason: string }[];
}

/** An AWSJSON value as an object. */
export const jsonObject = (value: unknown): Record<string, unknown> =>
  (typeof value === 'string' ? JSON.parse(value) : (value ?? {})) as Record<string, unknown>;

const cell = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** The first rows of a table's data, as text, with the rows left out for want of a usable key. */
export function DataPreview({ preview }: { readonly preview: PreviewData }) {
  const rows = preview.rows.map(jsonObject);
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {preview.rowCount.toLocaleString('en-US')} rows; the first {rows.length} shown.
      </Text>
      {preview.skippedCount > 0 && (
        <Alert color="yellow" title={`${preview.skippedCount} rows will be left out`}>
          {preview.skipped.slice(0, 5).map((s) => (
            <Text key={s.row} size="sm">
              Row {s.row}: {s.reason}
            </Text>
          ))}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={500} maxHeight={320}>
        <Table striped withTableBorder aria-label="Data preview" stickyHeader>
          <Table.Thead>
            <Table.Tr>
              {preview.columns.map((c) => (
                <Table.Th key={c.name}>
                  {c.name}{' '}
                  <Text span size="xs" c="dimmed">
                    {c.type}
                  </Text>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, i) => (
              <Table.Tr key={i}>
                {preview.columns.map((c) => (
                  <Table.Td key={c.name}>{cell(row[c.name])}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
