import { Button, Card, Code, Group, Skeleton, Stack, Title } from '@mantine/core';
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

/** An alert's events as the data lake holds them, one JSON document each. */
export function AlertEventList({ events, loading, error, hasNextPage, loadMore }: AlertEvents) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Events
      </Title>
      {loading && !events && <Skeleton h={120} radius="md" aria-label="Loading events" />}
      {error && !events && <LoadFailure title="Couldn't load the events" message={error} />}
      {events?.length === 0 && (
        <Card withBorder radius="md">
          <EmptyResults title="No events" description="This alert has no events in the data lake." />
        </Card>
      )}
      {events?.map((edge) => (
        <Card key={edge.cursor} withBorder radius="md" p="sm">
          <Code block style={{ maxHeight: 320, overflow: 'auto' }}>
            {pretty(edge.node)}
          </Code>
        </Card>
      ))}
      {hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={loadMore}>
            Load more events
          </Button>
        </Group>
      )}
    </Stack>
  );
}
