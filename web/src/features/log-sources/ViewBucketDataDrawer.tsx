import { Alert, Anchor, Button, Code, Drawer, Group, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type UIEvent } from 'react';
import { STREAM_TYPES, STREAM_TYPE_TITLES } from '../../../../core/log-sources/types';
import { MESSAGES, parseS3Url } from '../../../../core/log-sources/validation';
import { EmptyResults } from '../../components/EmptyResults';
import { AlertIcon } from '../../components/icons';
import type { LogSourceFieldsFragment, LogStreamType } from '../../lib/graphql/types';

/** Raw events longer than this show a slice and a "Show Log" toggle. */
export const SHOW_LOG_CHARS = 300;
/** The next page loads when the list is scrolled to within this many pixels of its end. */
export const LOAD_MORE_THRESHOLD_PX = 500;
export interface BucketRecord {
  readonly s3Key: string;
  readonly event: string | null;
  readonly error: string | null;
}

/** Where to look in the bucket, and how to split what is there. */
export interface BucketQuery {
  readonly prefix: string;
  readonly streamType: LogStreamType;
}

/** What the sheet shows: the objects read so far under the query, and reading more. */
export interface BucketData {
  readonly query: BucketQuery;
  readonly setQuery: (query: BucketQuery) => void;
  readonly records: readonly BucketRecord[];
  readonly hasNext: boolean;
  readonly loading: boolean;
  readonly error: string | null;
  readonly loadMore: () => void;
}

function RawEvent({ text }: { readonly text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > SHOW_LOG_CHARS;
  return (
    <Stack gap={4}>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {open || !long ? text : `${text.slice(0, SHOW_LOG_CHARS)}…`}
      </Code>
      {long && (
        <Anchor component="button" type="button" size="xs" onClick={() => setOpen(!open)}>
          {open ? 'Hide Log' : 'Show Log'}
        </Anchor>
      )}
    </Stack>
  );
}

/** The prefix the field asks for: a prefix as typed, or the key part of an S3 URL into the source's bucket. */
function prefixOf(input: string, bucket: string | undefined): { prefix: string } | { error: string } {
  if (!/^s3:\/\//i.test(input.trim())) return { prefix: input };
  const url = parseS3Url(input);
  return url && url.bucket === bucket ? { prefix: url.prefix } : { error: MESSAGES.s3Url };
}

/** Consecutive records of one object, under its key. */
function groupByObject(records: readonly BucketRecord[]): { s3Key: string; records: BucketRecord[] }[] {
  const groups: { s3Key: string; records: BucketRecord[] }[] = [];
  for (const record of records) {
    const last = groups[groups.length - 1];
    if (last && last.s3Key === record.s3Key) last.records.push(record);
    else groups.push({ s3Key: record.s3Key, records: [record] });
  }
  return groups;
}

interface ViewBucketDataDrawerProps {
  readonly source: LogSourceFieldsFragment;
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly data: BucketData;
}

/** The "View bucket data" sidesheet: objects under a prefix of an S3 source's bucket with their first events. */
export function ViewBucketDataDrawer({ source, opened, onClose, data }: ViewBucketDataDrawerProps) {
  const { query, setQuery, records, hasNext, loading, error, loadMore } = data;
  const [prefixInput, setPrefixInput] = useState(query.prefix);
  const [prefixError, setPrefixError] = useState<string>();

  function onScroll(event: UIEvent<HTMLDivElement>) {
    const el = event.currentTarget;
    const remaining = el.scrollHeight - el.scrollTop - el.clientHeight;
    if (remaining < LOAD_MORE_THRESHOLD_PX) loadMore();
  }

  const groups = groupByObject(records);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Text fw={600}>View bucket data</Text>}
      styles={{ body: { display: 'flex', flexDirection: 'column', height: 'calc(100% - 60px)' } }}
    >
      <Stack gap="sm" mb="sm">
        <Text size="sm" c="dimmed">
          Objects in <Code>{source.s3?.bucket}</Code> with their first events, split as this source reads them.
        </Text>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const asked = prefixOf(prefixInput, source.s3?.bucket);
            if ('error' in asked) setPrefixError(asked.error);
            else setQuery({ ...query, prefix: asked.prefix });
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              label="Prefix"
              placeholder={`Whole bucket, or s3://${source.s3?.bucket ?? 'bucket'}/prefix/`}
              value={prefixInput}
              onChange={(event) => {
                setPrefixInput(event.currentTarget.value);
                setPrefixError(undefined);
              }}
              error={prefixError}
              style={{ flex: 1 }}
            />
            <Select
              label="Stream type"
              data={STREAM_TYPES.map((t) => ({ value: t, label: STREAM_TYPE_TITLES[t] }))}
              value={query.streamType}
              onChange={(value) => value && setQuery({ ...query, streamType: value as LogStreamType })}
              allowDeselect={false}
              w={170}
            />
            <Button type="submit" variant="light">
              View
            </Button>
          </Group>
        </form>
      </Stack>
      <div style={{ flex: 1, overflowY: 'auto' }} onScroll={onScroll} data-testid="bucket-data-list">
        <Stack gap="md" pb="md">
          {error && (
            <Alert color="red" variant="light" icon={<AlertIcon size={16} />} title="Couldn't read the bucket">
              {error}
            </Alert>
          )}
          {!loading && !error && records.length === 0 && (
            <EmptyResults
              title="No Events found"
              description="Nothing under this prefix yet. Check the prefix, or send some data."
            />
          )}
          {groups.map((group, i) => (
            <Stack key={`${group.s3Key}-${i}`} gap={6}>
              <Text size="sm" fw={600} ff="monospace" style={{ wordBreak: 'break-all' }}>
                {group.s3Key}
              </Text>
              {group.records.map((record, j) =>
                record.error ? (
                  <Alert key={j} color="red" variant="light" p="xs">
                    <Text size="sm">{record.error}</Text>
                  </Alert>
                ) : (
                  <RawEvent key={j} text={record.event ?? ''} />
                ),
              )}
            </Stack>
          ))}
          {loading && (
            <Group justify="center" py="sm">
              <Loader size="sm" aria-label="Loading objects" />
            </Group>
          )}
          {!loading && hasNext && (
            <Group justify="center">
              <Button variant="subtle" size="xs" onClick={loadMore}>
                Load more
              </Button>
            </Group>
          )}
        </Stack>
      </div>
    </Drawer>
  );
}
