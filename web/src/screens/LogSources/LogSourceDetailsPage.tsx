import { useMutation, useQuery } from '@apollo/client/react';
import { useBreadcrumbLabel } from '../../app/shell/breadcrumbLabels';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications as snackbars } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { STREAM_TYPE_TITLES } from '../../../../core/log-sources/types';
import { usePageTitle } from '../../app/usePageTitle';
import { AlertIcon } from '../../components/icons';
import { describeApiError } from '../../lib/apollo/apiErrors';
import { formatDateTimeUtc } from '../../lib/format';
import type { LogSourceFieldsFragment, SourceCheckStatus } from '../../lib/graphql/types';
import { Can } from '../../lib/permissions';
import { ClassificationFailuresDrawer } from '../../features/log-sources/ClassificationFailuresDrawer';
import { IngestionChart, formatBytes } from '../../features/log-sources/IngestionChart';
import { DELETE_LOG_SOURCE, LOG_SOURCE_QUERY, LOG_SOURCES_QUERY, SOURCE_HEALTH_QUERY } from './logSources.operations';
import { LOG_SOURCE_ROUTES, editLogSourcePath } from '../../app/routes';
import { SetStreamTypeDrawer } from '../../features/log-sources/SetStreamTypeDrawer';
import { HealthBadge, TransportBadge } from '../../features/log-sources/SourceBadges';
import { ViewBucketDataDrawer } from '../../features/log-sources/ViewBucketDataDrawer';

/** Health and figures refresh this often while the page is open. */
const REFRESH_MS = 10_000;

const CHECK_COLORS: Record<SourceCheckStatus, string> = { OK: 'green', FAILED: 'red', SKIPPED: 'gray' };

function Row({ label, children }: { readonly label: string; readonly children: React.ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={220} fw={500}>
        {label}
      </Table.Th>
      <Table.Td style={{ wordBreak: 'break-all' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

function Copyable({ value }: { readonly value: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all', flex: 1, minWidth: 0 }}>
        {value}
      </Text>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="light" onClick={copy} style={{ flexShrink: 0 }}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

function TransportSettings({ source }: { readonly source: LogSourceFieldsFragment }) {
  if (source.s3) {
    return (
      <>
        <Row label="Bucket">{source.s3.bucket}</Row>
        <Row label="IAM role">{source.s3.roleArn ?? "Caracal's own role"}</Row>
        <Row label="KMS key">{source.s3.kmsKey ?? 'None'}</Row>
        <Row label="Prefixes">
          <Stack gap={4}>
            {source.s3.prefixes.map((p) => (
              <Text key={p.prefix} size="sm">
                <Text span ff="monospace">
                  {p.prefix || '(whole bucket)'}
                </Text>
                {' → '}
                {p.logTypes.join(', ')}
                {p.excludedPrefixes.length > 0 && (
                  <Text span c="dimmed">
                    {' '}
                    (excluding {p.excludedPrefixes.join(', ')})
                  </Text>
                )}
              </Text>
            ))}
          </Stack>
        </Row>
      </>
    );
  }
  if (source.sqs) {
    return (
      <>
        <Row label="Queue URL">
          <Copyable value={source.sqs.queueUrl} />
        </Row>
        <Row label="Queue ARN">{source.sqs.queueArn}</Row>
        <Row label="Allowed principals">{source.sqs.allowedPrincipalArns.join(', ') || 'None'}</Row>
        <Row label="Allowed source ARNs">{source.sqs.allowedSourceArns.join(', ') || 'None'}</Row>
      </>
    );
  }
  if (source.http) {
    return (
      <>
        <Row label="Endpoint URL">
          {source.http.endpointUrl ? (
            <Copyable value={source.http.endpointUrl} />
          ) : (
            <Badge color="yellow" variant="light">
              Pending
            </Badge>
          )}
        </Row>
        <Row label="Authentication">{source.http.authType}</Row>
        {source.http.username && <Row label="Username">{source.http.username}</Row>}
        {source.http.headerName && <Row label="Header">{source.http.headerName}</Row>}
        {source.http.signatureHeader && (
          <Row label="Signature">
            {source.http.signatureHeader} ({source.http.hmacAlgorithm?.toUpperCase()})
          </Row>
        )}
        {source.http.secret && <Row label="Secret">{source.http.secret}</Row>}
      </>
    );
  }
  return null;
}

/** One log source: its settings, health checks and the last 24 hours of ingestion. */
export function LogSourceDetailsPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data, loading, error } = useQuery(LOG_SOURCE_QUERY, { variables: { id }, pollInterval: REFRESH_MS });
  const health = useQuery(SOURCE_HEALTH_QUERY, { variables: { id }, pollInterval: REFRESH_MS });
  const [remove, removal] = useMutation(DELETE_LOG_SOURCE, { context: { silent: true }, refetchQueries: [LOG_SOURCES_QUERY] });
  const [sheet, setSheet] = useState<'bucket' | 'stream' | 'failures' | 'delete' | null>(null);
  const source = data?.logSource;
  useBreadcrumbLabel(source?.label);
  usePageTitle(source?.label ?? 'Log Source');

  if (loading && !data) return <Skeleton h={320} radius="md" aria-label="Loading the log source" />;
  if (error && !data)
    return (
      <Alert color="red" variant="light" icon={<AlertIcon size={18} />} title="Couldn't load the log source">
        {describeApiError(error)}
      </Alert>
    );
  if (!source) return null;
  const figures = health.data?.sourceHealth;
  const events24h = figures?.hourly.reduce((sum, h) => sum + h.events, 0) ?? 0;
  const bytes24h = figures?.hourly.reduce((sum, h) => sum + h.bytes, 0) ?? 0;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={1} size="h2">
              {source.label}
            </Title>
            <TransportBadge transport={source.transport} />
            <HealthBadge status={source.health.status} />
            {!source.enabled && (
              <Badge color="gray" variant="light">
                Disabled
              </Badge>
            )}
          </Group>
          <Text c="dimmed" size="sm">
            {source.logTypes.join(', ')}
          </Text>
        </div>
        <Group gap="xs">
          {source.s3 && (
            <Can permissions={['LogSourceRawDataRead']}>
              <Button variant="default" onClick={() => setSheet('bucket')}>
                View bucket data
              </Button>
            </Can>
          )}
          <Can permissions={['LogSourceModify']}>
            <Button variant="default" onClick={() => setSheet('stream')}>
              Set log stream type
            </Button>
            <Button component={Link} to={editLogSourcePath(source.id)}>
              Edit
            </Button>
            <Button color="red" variant="light" onClick={() => setSheet('delete')}>
              Delete
            </Button>
          </Can>
        </Group>
      </Group>

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
        <Card withBorder radius="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Last event received
          </Text>
          <Text fw={600} size="lg" data-testid="last-event">
            {figures?.lastEventAt ? formatDateTimeUtc(figures.lastEventAt) : 'No events yet'}
          </Text>
        </Card>
        <Card withBorder radius="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Events, last 24 hours
          </Text>
          <Text fw={600} size="lg" data-testid="events-24h">
            {events24h.toLocaleString()}
          </Text>
        </Card>
        <Card withBorder radius="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Data, last 24 hours
          </Text>
          <Text fw={600} size="lg">
            {formatBytes(bytes24h)}
          </Text>
        </Card>
        <Card withBorder radius="md">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Classification failures
          </Text>
          <Group gap="xs" align="baseline">
            <Text
              fw={600}
              size="lg"
              c={figures?.totals.classificationFailures ? 'red' : undefined}
              data-testid="classification-failures"
            >
              {(figures?.totals.classificationFailures ?? 0).toLocaleString()}
            </Text>
            <Anchor component="button" type="button" size="sm" onClick={() => setSheet('failures')}>
              View failures
            </Anchor>
          </Group>
        </Card>
      </SimpleGrid>

      <Card withBorder radius="md" padding="lg">
        <Title order={2} size="h4" mb="sm">
          Events per hour
        </Title>
        {figures ? <IngestionChart hourly={figures.hourly} /> : <Skeleton h={240} />}
      </Card>

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <Card withBorder radius="md" padding="lg">
          <Title order={2} size="h4" mb="sm">
            Settings
          </Title>
          <Table variant="vertical" layout="fixed" withTableBorder>
            <Table.Tbody>
              <TransportSettings source={source} />
              <Row label="Stream type">
                {STREAM_TYPE_TITLES[source.streamType]}
                {source.jsonArrayEnvelopeField ? ` (array in "${source.jsonArrayEnvelopeField}")` : ''}
              </Row>
              <Row label="Created">
                {formatDateTimeUtc(source.createdAt)} by {source.createdBy}
              </Row>
              <Row label="Last changed">
                {formatDateTimeUtc(source.updatedAt)} by {source.updatedBy}
              </Row>
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h4">
              Health checks
            </Title>
            <Text size="xs" c="dimmed">
              {figures?.checkedAt ? `Checked ${formatDateTimeUtc(figures.checkedAt)}` : 'Checks run every 15 minutes'}
            </Text>
          </Group>
          {figures && figures.checks.length === 0 && (
            <Text size="sm" c="dimmed">
              Not checked yet.
            </Text>
          )}
          <Stack gap="xs">
            {figures?.checks.map((check) => (
              <Group key={check.name} justify="space-between" wrap="nowrap" align="flex-start">
                <div>
                  <Text size="sm" fw={500}>
                    {check.title}
                  </Text>
                  {check.message && (
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {check.message}
                    </Text>
                  )}
                </div>
                <Badge color={CHECK_COLORS[check.status]} variant="light" style={{ flexShrink: 0 }}>
                  {check.status === 'OK' ? 'Passed' : check.status === 'FAILED' ? 'Failed' : 'Skipped'}
                </Badge>
              </Group>
            ))}
          </Stack>
        </Card>
      </SimpleGrid>

      {source.s3 && <ViewBucketDataDrawer source={source} opened={sheet === 'bucket'} onClose={() => setSheet(null)} />}
      <SetStreamTypeDrawer source={source} opened={sheet === 'stream'} onClose={() => setSheet(null)} />
      <ClassificationFailuresDrawer sourceId={source.id} opened={sheet === 'failures'} onClose={() => setSheet(null)} />
      <Modal opened={sheet === 'delete'} onClose={() => setSheet(null)} title="Delete log source" centered>
        <Stack>
          <Text size="sm">
            Are you sure you want to delete {source.label}? Caracal stops reading its data
            {source.sqs ? ' and deletes its queue' : ''}. Data already in the lake stays.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setSheet(null)}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={removal.loading}
              onClick={async () => {
                try {
                  await remove({ variables: { id: source.id } });
                  snackbars.show({ color: 'green', message: `Deleted ${source.label}` });
                  navigate(LOG_SOURCE_ROUTES.list);
                } catch (err) {
                  snackbars.show({ color: 'red', title: 'Unable to delete the log source', message: describeApiError(err) });
                }
              }}
            >
              Confirm
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
