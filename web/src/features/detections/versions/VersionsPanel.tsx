// A detection's history: every saved version (who, when), a diff of any two (the YAML document and the Python),
// and Restore, which saves the chosen version's content as a new version.
import { Badge, Button, Group, Radio, SegmentedControl, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { CodeDiff } from '../editor/CodeEditor';

export interface VersionRow {
  readonly version: number;
  readonly enabled: boolean;
  readonly lastModified: string;
  readonly lastModifiedBy: string;
}

export interface VersionContent {
  readonly yaml: string;
  readonly body?: string | null;
}

interface VersionsPanelProps {
  readonly versions: readonly VersionRow[];
  readonly current: number;
  readonly loadVersion: (version: number) => Promise<VersionContent>;
  /** Absent when the user may not restore. */
  readonly onRestore?: (version: number) => Promise<void>;
  readonly formatTime?: (iso: string) => string;
}

export function VersionsPanel({ versions, current, loadVersion, onRestore, formatTime = (t) => t }: VersionsPanelProps) {
  const [left, setLeft] = useState<number>(versions[1]?.version ?? current);
  const [right, setRight] = useState<number>(current);
  const [contents, setContents] = useState<Record<number, VersionContent>>({});
  const [part, setPart] = useState<'yaml' | 'body'>('body');
  const [restoring, setRestoring] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    for (const v of [left, right])
      if (!contents[v])
        loadVersion(v)
          .then((c) => setContents((all) => ({ ...all, [v]: c })))
          .catch((err: Error) => setError(err.message));
  }, [left, right, contents, loadVersion]);

  const a = contents[left];
  const b = contents[right];
  const hasBody = Boolean(a?.body ?? b?.body);
  const shown = hasBody ? part : 'yaml';

  return (
    <Stack gap="sm">
      <Title order={4}>Versions</Title>
      <Table withTableBorder striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Version</Table.Th>
            <Table.Th>Saved by</Table.Th>
            <Table.Th>Saved at</Table.Th>
            <Table.Th>Compare (old)</Table.Th>
            <Table.Th>Compare (new)</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {versions.map((v) => (
            <Table.Tr key={v.version}>
              <Table.Td>
                <Group gap={4}>
                  <Text size="sm">{v.version}</Text>
                  {v.version === current && (
                    <Badge size="xs" variant="light">
                      current
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{v.lastModifiedBy}</Table.Td>
              <Table.Td>{formatTime(v.lastModified)}</Table.Td>
              <Table.Td>
                <Radio
                  aria-label={`Compare version ${v.version} as the old side`}
                  checked={left === v.version}
                  onChange={() => setLeft(v.version)}
                />
              </Table.Td>
              <Table.Td>
                <Radio
                  aria-label={`Compare version ${v.version} as the new side`}
                  checked={right === v.version}
                  onChange={() => setRight(v.version)}
                />
              </Table.Td>
              <Table.Td>
                {onRestore && v.version !== current && (
                  <Button size="compact-xs" variant="default" onClick={() => setRestoring(v.version)}>
                    Restore
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <Text size="sm">
          Version {left} → version {right}
        </Text>
        {hasBody && (
          <SegmentedControl
            size="xs"
            value={shown}
            onChange={(v) => setPart(v as 'yaml' | 'body')}
            data={[
              { value: 'body', label: 'Python' },
              { value: 'yaml', label: 'YAML' },
            ]}
          />
        )}
      </Group>
      {error && <Text c="red">{error}</Text>}
      {a && b ? (
        <CodeDiff
          label={`Differences between version ${left} and version ${right}`}
          language={shown === 'body' ? 'python' : 'yaml'}
          original={shown === 'body' ? (a.body ?? '') : a.yaml}
          modified={shown === 'body' ? (b.body ?? '') : b.yaml}
        />
      ) : (
        <Skeleton h={300} aria-label="Loading versions" />
      )}
      <ConfirmDialog
        opened={restoring !== null}
        title="Restore version"
        confirmLabel="Restore"
        onClose={() => setRestoring(null)}
        onConfirm={async () => {
          if (restoring === null || !onRestore) return;
          try {
            await onRestore(restoring);
            setRestoring(null);
          } catch (err) {
            setError((err as Error).message);
            setRestoring(null);
          }
        }}
      >
        {`Save the content of version ${restoring ?? ''} as a new version of this detection?`}
      </ConfirmDialog>
    </Stack>
  );
}
