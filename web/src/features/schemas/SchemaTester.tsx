import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  FileButton,
  Group,
  ScrollArea,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { STREAM_TYPES, STREAM_TYPE_TITLES } from '../../../../core/log-sources/types';
import { AlertIcon } from '../../components/icons';
import type {
  InferSchemaInput,
  InferSchemaQuery,
  LogStreamType,
  TestSchemaInput,
  TestSchemaQuery,
} from '../../lib/graphql/types';

const STREAM_OPTIONS = STREAM_TYPES.map((t) => ({ value: t, label: STREAM_TYPE_TITLES[t] }));
/** The API's limit; checked here first so a huge file gets a clear message without a round trip. */
const MAX_SAMPLE_BYTES = 512 * 1024;

export type SchemaTestReport = TestSchemaQuery['testSchema'];
export type InferredSchema = InferSchemaQuery['inferSchema'];

export interface SchemaTesterProps {
  readonly spec: string;
  readonly isFieldDiscoveryEnabled: boolean;
  /** Parses the samples with the spec; a failure rejects with the reason to show. */
  readonly onTest: (input: TestSchemaInput) => Promise<SchemaTestReport>;
  /** Infers a spec from the samples; a failure rejects with the reason to show. */
  readonly onInfer: (input: InferSchemaInput) => Promise<InferredSchema>;
  /** The spec is valid enough to test. */
  readonly canTest: boolean;
  readonly onInferred?: (spec: string) => void;
  readonly onDiscovered?: (discoveredSpec: string | null) => void;
}

type Report = SchemaTestReport;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Paste or upload sample logs, choose the stream type, and see the parsed events and each failure. */
export function SchemaTester({
  spec,
  isFieldDiscoveryEnabled,
  onTest,
  onInfer,
  canTest,
  onInferred,
  onDiscovered,
}: SchemaTesterProps) {
  const [samples, setSamples] = useState('');
  const [streamType, setStreamType] = useState<LogStreamType>('Lines' as LogStreamType);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<'test' | 'infer' | null>(null);
  const tooBig = new TextEncoder().encode(samples).length > MAX_SAMPLE_BYTES;

  const upload = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_SAMPLE_BYTES) {
      setError(`${file.name} is ${Math.ceil(file.size / 1024)} KB; sample logs are limited to 512 KB.`);
      return;
    }
    setSamples(await file.text());
    setError(null);
  };

  const run = async () => {
    setBusy('test');
    setError(null);
    setNotice(null);
    try {
      const tested = await onTest({ spec, samples, streamType, isFieldDiscoveryEnabled });
      setReport(tested);
      onDiscovered?.(tested.discoveredSpec ?? null);
    } catch (err) {
      setReport(null);
      setError(reasonOf(err));
    } finally {
      setBusy(null);
    }
  };

  const infer = async () => {
    setBusy('infer');
    setError(null);
    setNotice(null);
    try {
      const result = await onInfer({ samples, streamType });
      onInferred?.(result.spec);
      setNotice(
        `Inferred from ${result.events} event${result.events === 1 ? '' : 's'}` +
          (result.failures.length ? `; ${result.failures.length} line(s) were not JSON objects and were skipped.` : '.'),
      );
    } catch (err) {
      setError(reasonOf(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card withBorder radius="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Test with sample logs
          </Title>
          <Group gap="xs">
            <FileButton onChange={upload} accept=".log,.txt,.json,.jsonl,.ndjson,.csv,text/*,application/json">
              {(props) => (
                <Button variant="default" size="xs" {...props}>
                  Upload file
                </Button>
              )}
            </FileButton>
          </Group>
        </Group>
        <Textarea
          label="Sample logs"
          description="Paste log lines (at most 512 KB and 1000 records)."
          placeholder='{"time": "2026-01-01T00:00:00Z", "user": "alice"}'
          autosize
          minRows={5}
          maxRows={14}
          value={samples}
          onChange={(e) => setSamples(e.currentTarget.value)}
          error={tooBig ? 'Sample logs are limited to 512 KB' : undefined}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        />
        <Group align="flex-end">
          <Select
            label="Stream type"
            data={STREAM_OPTIONS}
            value={streamType}
            onChange={(v) => v && setStreamType(v as LogStreamType)}
            allowDeselect={false}
            w={200}
          />
          <Button
            variant="light"
            onClick={infer}
            loading={busy === 'infer'}
            disabled={!samples.trim() || tooBig || busy !== null}
          >
            Infer schema
          </Button>
          <Button onClick={run} loading={busy === 'test'} disabled={!samples.trim() || tooBig || !canTest || busy !== null}>
            Run test
          </Button>
        </Group>
        {notice && (
          <Alert color="blue" variant="light">
            {notice}
          </Alert>
        )}
        {error && (
          <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title="The test could not run">
            {error}
          </Alert>
        )}
        {report && <TestReport report={report} />}
      </Stack>
    </Card>
  );
}

function TestReport({ report }: { readonly report: Report }) {
  const parsedLines = new Set(report.events.map((e) => e.lineNumber)).size;
  return (
    <Stack gap="xs" aria-label="Test results">
      <Group gap="xs">
        <Badge color="green" variant="light">
          {report.events.length} event{report.events.length === 1 ? '' : 's'} parsed
        </Badge>
        <Badge color={report.failures.length ? 'red' : 'gray'} variant="light">
          {report.failures.length} failure{report.failures.length === 1 ? '' : 's'}
        </Badge>
        <Text size="xs" c="dimmed">
          {report.records} record{report.records === 1 ? '' : 's'} read, {parsedLines} parsed
          {report.truncated ? '; only the first 1000 events are shown' : ''}
        </Text>
      </Group>
      <Tabs defaultValue={report.failures.length ? 'failures' : 'events'}>
        <Tabs.List>
          <Tabs.Tab value="events">Parsed events ({report.events.length})</Tabs.Tab>
          <Tabs.Tab value="failures">Failures ({report.failures.length})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="events" pt="xs">
          <ScrollArea.Autosize mah={360}>
            <Stack gap={6}>
              {report.events.length === 0 && (
                <Text size="sm" c="dimmed">
                  No events parsed
                </Text>
              )}
              {report.events.map((e, i) => (
                <div key={i}>
                  <Text size="xs" c="dimmed">
                    Line {e.lineNumber}
                  </Text>
                  <Code block>{JSON.stringify(typeof e.event === 'string' ? JSON.parse(e.event) : e.event, null, 2)}</Code>
                </div>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Tabs.Panel>
        <Tabs.Panel value="failures" pt="xs">
          {report.failures.length === 0 ? (
            <Text size="sm" c="dimmed">
              Every line parsed
            </Text>
          ) : (
            <ScrollArea.Autosize mah={360}>
              <Table striped withTableBorder aria-label="Failures">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={80}>Line</Table.Th>
                    <Table.Th>Reason</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.failures.map((f, i) => (
                    <Table.Tr key={i}>
                      <Table.Td>{f.lineNumber}</Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ wordBreak: 'break-word' }}>
                          {f.message}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
