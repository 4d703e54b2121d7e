// @vitest-environment jsdom
// The log source form: the specification's messages as the user types (core's rules), the label taken by
// another source of the same transport, and the transport cards of Add New Sources.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { LogSourceForm } from '../../web/src/features/log-sources/LogSourceForm';
import type { LogSourceFieldsFragment } from '../../web/src/lib/graphql/types';
import { AddLogSourcePage } from '../../web/src/screens/LogSources/AddLogSourcePage';
import { AVAILABLE_LOG_TYPES_QUERY, LOG_SOURCES_QUERY } from '../../web/src/screens/LogSources/logSources.operations';
import { useLogSourceEditor } from '../../web/src/screens/LogSources/useLogSourceEditor';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

const logTypesMock = {
  request: { query: AVAILABLE_LOG_TYPES_QUERY },
  result: {
    data: {
      listAvailableLogTypes: {
        __typename: 'AvailableLogTypes',
        crowdstrikeFdrEnabled: false,
        logTypes: ['AWS.CloudTrail', 'AWS.SecurityFindingFormat', 'Crowdstrike.FDREvent'].map((name) => ({
          __typename: 'AvailableLogType',
          name,
          managed: true,
        })),
      },
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

const sourcesMock = (transport: string, labels: string[]) => ({
  request: { query: LOG_SOURCES_QUERY, variables: { input: { transport, first: 100 } } },
  result: {
    data: {
      logSources: {
        __typename: 'LogSourceConnection',
        pageInfo: { __typename: 'PageInfo', endCursor: null, hasNextPage: false },
        edges: labels.map((label, i) => ({
          __typename: 'LogSourceEdge',
          node: {
            __typename: 'LogSource',
            id: `id-${i}`,
            label,
            transport,
            logTypes: ['AWS.CloudTrail'],
            streamType: 'Auto',
            jsonArrayEnvelopeField: null,
            enabled: true,
            createdAt: '2026-11-21T10:00:00Z',
            createdBy: 'a',
            updatedAt: '2026-11-21T10:00:00Z',
            updatedBy: 'a',
            s3: null,
            sqs: null,
            http: null,
            health: { __typename: 'SourceHealthSummary', status: 'PENDING', checkedAt: null, lastEventAt: null },
          },
        })),
      },
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
});

const noop = () => undefined;

/** The Add New Sources page with a transport chosen. */
const adding = (type: string) => ({ at: `/configure/log-sources/add-new-source/?type=${type}` });

/** The edit page's form, wired to the API as the page wires it. */
function Editing({ source }: { readonly source: LogSourceFieldsFragment }) {
  const editor = useLogSourceEditor({ transport: 'http-ingest', source, onSaved: noop });
  return (
    <LogSourceForm transport="http-ingest" source={source} choices={editor.choices} onSubmit={editor.save} onCancel={noop} />
  );
}

describe('the S3 source form', () => {
  it('shows the specification messages as the user types', async () => {
    const user = userEvent.setup();
    renderWithApi(<AddLogSourcePage />, { mocks: [logTypesMock, sourcesMock('AWS_S3', [])], ...adding('aws-s3') });
    const fill = async (element: HTMLElement, text: string) => {
      await user.click(element);
      await user.paste(text);
    };
    await fill(await screen.findByRole('textbox', { name: /^Name/ }), 'bad_label');
    expect(await screen.findByText('Can only include alphanumeric characters, dashes and spaces')).toBeTruthy();
    await fill(screen.getByRole('textbox', { name: /^Bucket name/ }), 'Bad_Bucket');
    expect(
      await screen.findByText('Must be a valid S3 bucket name: 3 to 63 lowercase letters, digits, hyphens and dots'),
    ).toBeTruthy();
    await fill(screen.getByRole('textbox', { name: /^Prefix$/ }), '*');
    expect(await screen.findByText("'*' is not acceptable, leave empty to include all")).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: /^Prefix$/ }));
    await fill(screen.getByRole('textbox', { name: /^Prefix$/ }), '/logs');
    expect(await screen.findByText("Prefix must not start with '/'")).toBeTruthy();
    await fill(screen.getByRole('textbox', { name: /^IAM role ARN/ }), 'arn:aws:iam::1:role/x');
    expect(await screen.findByText('Must be a valid IAM role ARN (arn:aws:iam::123456789012:role/name)')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save Source' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says when another S3 source has the label', async () => {
    const user = userEvent.setup();
    renderWithApi(<AddLogSourcePage />, {
      mocks: [logTypesMock, sourcesMock('AWS_S3', ['Org CloudTrail'])],
      ...adding('aws-s3'),
    });
    await new Promise((r) => setTimeout(r, 50));
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'org cloudtrail');
    expect(await screen.findByText('You already have an AWS S3 source with the same label')).toBeTruthy();
  });

  it('a long label is refused, however long', async () => {
    const user = userEvent.setup();
    renderWithApi(<AddLogSourcePage />, { mocks: [logTypesMock, sourcesMock('AWS_S3', [])], ...adding('aws-s3') });
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user.click(name);
    await user.paste('a'.repeat(5000));
    expect(await screen.findByText('Must be at most 36 characters')).toBeTruthy();
  });
});

describe('the HTTP source form', () => {
  it('asks for the secret of the chosen authentication', async () => {
    const user = userEvent.setup();
    renderWithApi(<AddLogSourcePage />, { mocks: [logTypesMock, sourcesMock('HTTP_INGEST', [])], ...adding('http-ingest') });
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Webhook');
    await user.click(screen.getByRole('button', { name: 'Save Source' }).closest('form')!.querySelector('input[name="secret"]')!);
    await user.tab();
    await waitFor(() => expect(screen.getAllByText('This field is required').length).toBeGreaterThan(0));
    await user.click(screen.getByText('HMAC signature'));
    expect(await screen.findByRole('textbox', { name: /^Signature header/ })).toBeTruthy();
    await user.click(screen.getByText('None'));
    expect(document.querySelector('input[name="secret"]')).toBeNull();
  });
});

describe('editing an HTTP source', () => {
  it('keeps the stored secret unless one is typed, and offers the Enabled switch', async () => {
    const user = userEvent.setup();
    const source: LogSourceFieldsFragment = {
      id: 'id-9',
      label: 'Webhook',
      transport: 'HTTP_INGEST' as const,
      logTypes: ['AWS.CloudTrail'],
      streamType: 'Auto' as const,
      jsonArrayEnvelopeField: null,
      enabled: true,
      createdAt: '2026-11-21T10:00:00Z',
      createdBy: 'a',
      updatedAt: '2026-11-21T10:00:00Z',
      updatedBy: 'a',
      s3: null,
      sqs: null,
      http: {
        authType: 'Bearer' as const,
        username: null,
        headerName: null,
        hmacAlgorithm: null,
        signatureHeader: null,
        secret: '********',
        endpointUrl: 'http://localhost/ingest/id-9',
      },
      health: { status: 'HEALTHY' as const, checkedAt: null, lastEventAt: null },
    };
    renderWithApi(<Editing source={source} />, { mocks: [logTypesMock, sourcesMock('HTTP_INGEST', [])] });
    expect(await screen.findByText('Leave empty to keep the current one.')).toBeTruthy();
    const save = screen.getByRole('button', { name: 'Save Changes' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const enabled = screen.getByRole('switch', { name: /Enabled/ }) as HTMLInputElement;
    expect(enabled.checked).toBe(true);
    await user.click(enabled);
    await waitFor(() => expect(save.disabled).toBe(false));
    await user.click(screen.getByText('Shared secret'));
    await user.type(screen.getByRole('textbox', { name: /^Header name/ }), 'X-Key');
    expect(screen.queryByText('Leave empty to keep the current one.')).toBeNull();
    await user.click(document.querySelector('input[name="secret"]')!);
    await user.tab();
    await waitFor(() => expect(screen.getByText('This field is required')).toBeTruthy());
    expect(save.disabled).toBe(true);
  });
});

describe('Add New Sources', () => {
  it('offers S3, SQS and HTTP, and shows the other transports as coming later', async () => {
    renderWithApi(<AddLogSourcePage />, { mocks: [logTypesMock] });
    for (const title of ['AWS S3', 'AWS SQS', 'HTTP'])
      expect(await screen.findByRole('button', { name: `Add ${title} source` })).toBeTruthy();
    expect(screen.getAllByText('Coming later')).toHaveLength(8);
    expect(screen.queryByRole('button', { name: 'Add Amazon EventBridge source' })).toBeNull();
  });
});
