// "Test against data": the rule run over the last hours of its log types in the lake, the matches listed.
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';

export const DATA_TEST_HOURS = [1, 6, 24, 72] as const;

export interface DataRunOutcome {
  readonly scanned: number;
  readonly matchedCount: number;
  readonly capped: boolean;
  readonly errorCount: number;
  readonly firstError?: string | null;
  readonly logTypes: readonly string[];
  readonly matches: readonly {
    readonly logType: string;
    readonly eventTime?: string | null;
    readonly title?: string | null;
    readonly severity?: string | null;
    readonly event: string;
  }[];
}

export function TestAgainstData({ onRun }: { readonly onRun: (hours: number) => Promise<DataRunOutcome> }) {
  const [hours, setHours] = useState('24');
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<DataRunOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setRunning(true);
    setError(null);
    try {
      setOutcome(await onRun(Number(hours)));
    } catch (err) {
      setOutcome(null);
      setError((err as Error).message);
    } finally {
      setRunning(false);
    }
  };
  return (
    <Stack gap="sm">
      <Title order={4}>Test against data</Title>
      <Text size="sm" c="dimmed">
        Run the rule as it is in the editor over the events of its log types in the data lake, without raising alerts.
      </Text>
      <Group>
        <SegmentedControl
          aria-label="Hours to read"
          value={hours}
          onChange={setHours}
          data={DATA_TEST_HOURS.map((h) => ({ value: String(h), label: `Last ${h}h` }))}
        />
        <Button variant="light" onClick={() => void run()} loading={running}>
          Run against data
        </Button>
      </Group>
      {running && (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">Reading the last {hours} hour(s) of events…</Text>
        </Group>
      )}
      {error && (
        <Alert color="red" variant="light">
          {error}
        </Alert>
      )}
      {outcome && !running && (
        <Stack gap="xs" data-testid="data-test-outcome">
          <Text size="sm" role="status">
            {outcome.matchedCount} matching event(s) of {outcome.scanned} scanned in {outcome.logTypes.join(', ')}
            {outcome.capped ? ' (stopped at the cap on events read)' : ''}
            {outcome.matchedCount > outcome.matches.length ? `; the first ${outcome.matches.length} are listed` : ''}
          </Text>
          {outcome.errorCount > 0 && (
            <Alert color="orange" variant="light" title={`${outcome.errorCount} event(s) raised an error`}>
              {outcome.firstError}
            </Alert>
          )}
          {outcome.matches.length > 0 && (
            <ScrollArea.Autosize mah={400} type="auto">
              <Table striped withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Event time</Table.Th>
                    <Table.Th>Title</Table.Th>
                    <Table.Th>Event</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {outcome.matches.map((m, i) => (
                    <Table.Tr key={i}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Text size="xs">{m.eventTime}</Text>
                        {m.severity && <Badge size="xs">{m.severity}</Badge>}
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs">{m.title}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Code block style={{ maxWidth: 640, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                          {m.event.length > 600 ? `${m.event.slice(0, 600)}…` : m.event}
                        </Code>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
        </Stack>
      )}
    </Stack>
  );
}
