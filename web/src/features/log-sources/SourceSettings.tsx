import { Badge, Button, CopyButton, Group, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { STREAM_TYPE_TITLES } from '../../../../core/log-sources/types';
import { formatDateTimeUtc } from '../../lib/format';
import type { LogSourceFieldsFragment } from '../../lib/graphql/types';

function Row({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={220} fw={500}>
        {label}
      </Table.Th>
      <Table.Td style={{ overflowWrap: 'break-word' }}>{children}</Table.Td>
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

/** A source's settings: those of its transport, its stream type, and who created and last changed it. */
export function SourceSettings({ source }: { readonly source: LogSourceFieldsFragment }) {
  return (
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
  );
}
