import { Alert, Badge, Button, Code, Drawer, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { EmptyResults } from '../../components/EmptyResults';
import { AlertIcon } from '../../components/icons';
import { formatCount, formatDateTimeUtc } from '../../lib/format';
import type { SourceClassificationFailuresQuery } from '../../lib/graphql/types';

type Failure = SourceClassificationFailuresQuery['classificationFailures']['edges'][number]['node'];

/** What the sheet shows: the failures read so far, and the source's processing errors. */
export interface ClassificationFailures {
  /** Undefined until the first page arrives. */
  readonly failures: readonly Failure[] | undefined;
  readonly processingErrors: SourceClassificationFailuresQuery['sourceProcessingErrors'] | undefined;
  readonly loading: boolean;
  /** Why they could not be read. */
  readonly error: string | undefined;
  readonly hasNextPage: boolean;
  readonly loadMore: () => void;
}

interface ClassificationFailuresDrawerProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  readonly data: ClassificationFailures;
}

/** The lines of a source no schema read (newest first), and what the pipeline refused or could not read. */
export function ClassificationFailuresDrawer({ opened, onClose, data }: ClassificationFailuresDrawerProps) {
  const { failures, processingErrors: errors, loading, error, hasNextPage, loadMore } = data;
  const refused = errors
    ? [
        ['Corrupt objects', errors.corruptObjects],
        ['Unauthenticated (401)', errors.httpUnauthenticated],
        ['Forbidden (403)', errors.httpForbidden],
        ['Unsupported media (415)', errors.httpUnsupportedMediaType],
        ['Too large (413)', errors.httpTooLarge],
        ['Bad requests', errors.httpBadRequest],
      ]
    : [];
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="xl" title={<Text fw={600}>Classification failures</Text>}>
      <Stack gap="md">
        {error && (
          <Alert color="red" variant="light" icon={<AlertIcon size={16} />}>
            {error}
          </Alert>
        )}
        {errors && (
          <SimpleGrid cols={3} spacing="xs">
            {refused.map(([label, count]) => (
              <Stack key={label} gap={0}>
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text fw={600}>{formatCount(Number(count))}</Text>
              </Stack>
            ))}
          </SimpleGrid>
        )}
        {errors?.lastError && (
          <Text size="sm" c="red">
            Last error{errors.lastErrorAt ? ` (${formatDateTimeUtc(errors.lastErrorAt)})` : ''}: {errors.lastError}
          </Text>
        )}
        {failures?.length === 0 && (
          <EmptyResults
            title="No classification failures"
            description="Every line this source sent was read by one of its schemas."
          />
        )}
        {failures?.map((failure, i) => (
          <Stack key={`${failure.objectKey}-${failure.lineNumber}-${failure.index}-${i}`} gap={4}>
            <Group gap="xs" justify="space-between">
              <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {failure.objectKey} · line {failure.lineNumber}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDateTimeUtc(failure.receivedAt)}
              </Text>
            </Group>
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {failure.line}
            </Code>
            <Text size="sm" c="red">
              {failure.error}
            </Text>
            {failure.attempts.map((attempt) => (
              <Group key={attempt.logType} gap="xs" wrap="nowrap" align="flex-start">
                <Badge size="sm" variant="light" color="gray" tt="none">
                  {attempt.logType}
                </Badge>
                <Text size="xs">{attempt.error}</Text>
              </Group>
            ))}
          </Stack>
        ))}
        {loading && <Loader size="sm" />}
        {hasNextPage && (
          <Group justify="center">
            <Button variant="subtle" size="xs" onClick={loadMore}>
              Load more
            </Button>
          </Group>
        )}
      </Stack>
    </Drawer>
  );
}
