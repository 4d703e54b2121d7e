// Bulk upload: drop or choose a zip in the panther-analysis layout, see what it would do (validateBulkUpload:
// new, changed, unchanged, invalid with reasons, file issues), then Apply (bulkUpload) and see each item's result.
import { Alert, Badge, Box, Button, FileButton, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useState, type DragEvent } from 'react';
import type { BulkUploadReportFieldsFragment } from '../../lib/graphql/types';
import { TYPE_LABELS } from '../detections/list/listParams';

export type BulkUploadReport = BulkUploadReportFieldsFragment;

/** Largest zip the API takes (decoded). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

interface BulkUploadModalProps {
  readonly opened: boolean;
  readonly onClose: () => void;
  /** Checks the zip (base64) without saving anything. */
  readonly onValidate: (data: string) => Promise<BulkUploadReport>;
  /** Saves the zip's valid items. */
  readonly onApply: (data: string) => Promise<BulkUploadReport>;
  /** Whether the user may apply (BulkUpload) or only validate. */
  readonly canApply: boolean;
}

type Stage =
  | { step: 'choose'; error: string | null }
  | { step: 'checking'; name: string }
  | { step: 'checked'; name: string; data: string; report: BulkUploadReport; error: string | null }
  | { step: 'applying'; name: string; data: string; report: BulkUploadReport }
  | { step: 'applied'; name: string; report: BulkUploadReport };

/** A file's bytes as base64. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function BulkUploadModal({ opened, onClose, onValidate, onApply, canApply }: BulkUploadModalProps) {
  const [stage, setStage] = useState<Stage>({ step: 'choose', error: null });
  const [dragging, setDragging] = useState(false);

  const close = () => {
    if (stage.step === 'checking' || stage.step === 'applying') return;
    setStage({ step: 'choose', error: null });
    onClose();
  };

  const choose = async (file: File | null) => {
    if (!file) return;
    if (!/\.zip$/i.test(file.name)) return setStage({ step: 'choose', error: `${file.name} is not a .zip file` });
    if (file.size > MAX_UPLOAD_BYTES) return setStage({ step: 'choose', error: `${file.name} is larger than 5 MB` });
    setStage({ step: 'checking', name: file.name });
    try {
      const data = await base64Of(file);
      const report = await onValidate(data);
      setStage({ step: 'checked', name: file.name, data, report, error: null });
    } catch (err) {
      setStage({ step: 'choose', error: errorText(err) });
    }
  };

  const apply = async () => {
    if (stage.step !== 'checked') return;
    setStage({ step: 'applying', name: stage.name, data: stage.data, report: stage.report });
    try {
      setStage({ step: 'applied', name: stage.name, report: await onApply(stage.data) });
    } catch (err) {
      setStage({ ...stage, error: errorText(err) });
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0] ?? null);
  };

  const report = stage.step === 'checked' || stage.step === 'applying' || stage.step === 'applied' ? stage.report : null;
  const toApply = report ? report.items.filter((i) => i.status === 'COMPLETED' && i.change !== 'UNCHANGED').length : 0;

  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>Bulk upload</Text>} size="xl" centered>
      <Stack gap="md">
        {(stage.step === 'choose' || stage.step === 'checking') && (
          <Box
            data-testid="bulk-upload-dropzone"
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            p="xl"
            style={{
              border: `2px dashed var(--mantine-color-${dragging ? 'blue-5' : 'default-border'})`,
              borderRadius: 8,
              textAlign: 'center',
            }}
          >
            <Stack gap="xs" align="center">
              <Text fw={500}>{stage.step === 'checking' ? `Checking ${stage.name}…` : 'Drop a .zip file here'}</Text>
              <Text size="sm" c="dimmed">
                A repository in the panther-analysis layout: rules, policies, scheduled and correlation rules, global helpers,
                data models and packs, with their Python files. At most 5 MB.
              </Text>
              <FileButton onChange={(file) => void choose(file)} accept=".zip,application/zip">
                {(props) => (
                  <Button {...props} variant="default" loading={stage.step === 'checking'}>
                    Choose a zip
                  </Button>
                )}
              </FileButton>
            </Stack>
          </Box>
        )}
        {stage.step === 'choose' && stage.error && (
          <Alert color="red" title="The zip could not be checked">
            {stage.error}
          </Alert>
        )}
        {report && stage.step !== 'choose' && stage.step !== 'checking' && (
          <>
            <Text size="sm">
              {stage.step === 'applied' ? `Uploaded ${stage.name}:` : `What uploading ${stage.name} would do:`}
            </Text>
            <UploadTotals report={report} />
            <UploadItems report={report} applied={stage.step === 'applied'} />
          </>
        )}
        {stage.step === 'checked' && stage.error && (
          <Alert color="red" title="The upload failed">
            {stage.error}
          </Alert>
        )}
        <Group justify="flex-end">
          {(stage.step === 'checked' || stage.step === 'applying') && (
            <>
              <Button
                variant="default"
                onClick={() => setStage({ step: 'choose', error: null })}
                disabled={stage.step === 'applying'}
              >
                Choose another file
              </Button>
              {canApply && (
                <Button onClick={() => void apply()} loading={stage.step === 'applying'} disabled={toApply === 0}>
                  Apply
                </Button>
              )}
            </>
          )}
          {(stage.step === 'applied' || stage.step === 'choose') && (
            <Button variant={stage.step === 'applied' ? 'filled' : 'default'} onClick={close}>
              {stage.step === 'applied' ? 'Done' : 'Cancel'}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

function UploadTotals({ report }: { readonly report: BulkUploadReport }) {
  const cells: [string, number, string][] = [
    ['New', report.totals.new, 'green'],
    ['Changed', report.totals.modified, 'blue'],
    ['Unchanged', report.totals.unchanged, 'gray'],
    ['Invalid', report.totals.failed, 'red'],
  ];
  return (
    <SimpleGrid cols={4} role="list" aria-label="Upload totals">
      {cells.map(([label, count, color]) => (
        <Box
          key={label}
          role="listitem"
          p="sm"
          style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
        >
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700} size="xl" c={count ? color : undefined}>
            {count}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}

const STATUS_LABELS = { COMPLETED: 'OK', FAILED: 'Invalid', NOT_PROCESSED: 'Skipped' } as const;
const CHANGE_LABELS: Record<string, string> = { NEW: 'New', MODIFIED: 'Changed', UNCHANGED: 'Unchanged' };

function UploadItems({ report, applied }: { readonly report: BulkUploadReport; readonly applied: boolean }) {
  const items = [...report.items].sort((a, b) => Number(a.status !== 'FAILED') - Number(b.status !== 'FAILED'));
  return (
    <ScrollArea.Autosize mah="45vh" type="auto">
      <Table aria-label="Upload items" verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Item</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Change</Table.Th>
            <Table.Th>{applied ? 'Result' : 'Check'}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={`${item.path}:${item.id}`}>
              <Table.Td>
                <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                  {item.id}
                </Text>
                <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                  {item.path}
                </Text>
                {item.reasons.map((reason) => (
                  <Text key={reason} size="xs" c={item.status === 'FAILED' ? 'red' : 'dimmed'}>
                    {reason}
                  </Text>
                ))}
              </Table.Td>
              <Table.Td>{TYPE_LABELS[item.analysisType]}</Table.Td>
              <Table.Td>{CHANGE_LABELS[item.change] ?? item.change}</Table.Td>
              <Table.Td>
                <Badge
                  size="sm"
                  variant="light"
                  color={item.status === 'FAILED' ? 'red' : item.status === 'COMPLETED' ? 'green' : 'gray'}
                >
                  {applied && item.status === 'COMPLETED' ? 'Saved' : STATUS_LABELS[item.status]}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
          {report.fileIssues.map((issue) => (
            <Table.Tr key={`issue:${issue.path}`}>
              <Table.Td colSpan={3}>
                <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                  {issue.path}
                </Text>
                <Text size="xs" c="orange">
                  {issue.message}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge size="sm" variant="light" color="orange">
                  File issue
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}
