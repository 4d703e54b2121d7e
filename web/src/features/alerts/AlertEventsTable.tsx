import { Button, Card, Code, CopyButton, Group, Modal, MultiSelect, Skeleton, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { DataTable } from '../../components/DataTable';
import { EmptyResults } from '../../components/EmptyResults';
import { LoadFailure } from '../../components/LoadFailure';
import { pretty } from './AlertSummary';

/** The events of an alert read so far, and reading more. */
export interface AlertEvents {
  /** Undefined until the first page arrives. */
  readonly events: readonly { readonly cursor: string; readonly node: unknown }[] | undefined;
  readonly loading: boolean;
  /** Why they could not be read. */
  readonly error: string | undefined;
  readonly hasNextPage: boolean;
  readonly loadMore: () => void;
}

type Row = { readonly key: string; readonly event: Record<string, unknown> };
const column = createColumnHelper<Row>();

/** An event from the API (AWSJSON text) as an object; a value that is not an object is kept under `value`. */
export function parseEvent(node: unknown): Record<string, unknown> {
  try {
    const value = typeof node === 'string' ? JSON.parse(node) : node;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { value: node };
  }
}

/** A cell's text: strings as they are, anything else as compact JSON (always text, never markup). */
export const cellText = (value: unknown) =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** The columns shown first: the event time, then the first fields of the events. */
export function defaultColumns(fields: readonly string[]): string[] {
  const first = fields.filter((f) => f === 'p_event_time');
  return [...first, ...fields.filter((f) => !f.startsWith('p_')).slice(0, 5)];
}

/**
 * An alert's events from the data lake as a table: a column chooser over every field the events hold, each
 * event's JSON (with a copy button) on demand, and "Load more events" for the next page.
 */
export function AlertEventsTable({ events, loading, error, hasNextPage, loadMore }: AlertEvents) {
  const rows = useMemo<Row[]>(() => (events ?? []).map((e) => ({ key: e.cursor, event: parseEvent(e.node) })), [events]);
  const fields = useMemo(() => {
    const seen = new Set<string>();
    for (const row of rows) for (const key of Object.keys(row.event)) seen.add(key);
    return [...seen].sort((a, b) => Number(a.startsWith('p_')) - Number(b.startsWith('p_')) || a.localeCompare(b));
  }, [rows]);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const shown = chosen ?? defaultColumns(fields);
  const [open, setOpen] = useState<Row | null>(null);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- column value types differ per column
  const columns = useMemo<ColumnDef<Row, any>[]>(
    () => [
      column.display({
        id: 'json',
        header: '',
        cell: (info) => (
          <Button size="compact-xs" variant="subtle" onClick={() => setOpen(info.row.original)}>
            JSON
          </Button>
        ),
      }),
      ...shown.map((field) =>
        column.accessor((row) => cellText(row.event[field]), {
          id: `f:${field}`,
          header: field,
          cell: (info) => (
            <Text size="sm" ff="monospace" lineClamp={2} style={{ wordBreak: 'break-all' }}>
              {info.getValue()}
            </Text>
          ),
        }),
      ),
    ],
    [shown],
  );
  const json = open ? pretty(JSON.stringify(open.event)) : '';
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h4">
          Events
        </Title>
        {fields.length > 0 && (
          <MultiSelect
            label="Columns"
            data={fields}
            value={shown}
            searchable
            w={420}
            maxDropdownHeight={300}
            onChange={setChosen}
          />
        )}
      </Group>
      {loading && !events && <Skeleton h={120} radius="md" aria-label="Loading events" />}
      {error && !events && <LoadFailure title="Couldn't load the events" message={error} />}
      {events?.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No events" description="This alert has no events in the data lake." />
        </Card>
      )}
      {rows.length > 0 && (
        <Card withBorder radius="md" p={0}>
          <DataTable data={rows} columns={columns} getRowId={(r) => r.key} label="Events" rowHeight={45} noWrap />
        </Card>
      )}
      {hasNextPage && (
        <Group justify="center">
          <Button variant="default" loading={loading && !!events} onClick={loadMore}>
            Load more events
          </Button>
        </Group>
      )}
      <Modal opened={!!open} onClose={() => setOpen(null)} title="Event" size="xl">
        <Stack gap="sm">
          <Group justify="flex-end">
            <CopyButton value={json}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" color={copied ? 'green' : undefined} onClick={copy}>
                  {copied ? 'Copied' : 'Copy JSON'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Code block style={{ maxHeight: '60vh', overflow: 'auto' }}>
            {json}
          </Code>
        </Stack>
      </Modal>
    </Stack>
  );
}
