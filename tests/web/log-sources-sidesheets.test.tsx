// @vitest-environment jsdom
// The log source sidesheets: Set log stream type (the enclosing-field toggle and the nested-field warning)
// and View bucket data ("Show Log" at 300 characters, errors, the next page within 500 px of the end,
// 'No Events found', an S3 URL for the prefix).
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SetStreamTypeDrawer } from '../../web/src/features/log-sources/SetStreamTypeDrawer';
import {
  LOAD_MORE_THRESHOLD_PX,
  SHOW_LOG_CHARS,
  ViewBucketDataDrawer,
} from '../../web/src/features/log-sources/ViewBucketDataDrawer';
import { VIEW_BUCKET_DATA_QUERY } from '../../web/src/screens/LogSources/logSources.operations';
import { useBucketData } from '../../web/src/screens/LogSources/useBucketData';
import type { LogSourceFieldsFragment } from '../../web/src/lib/graphql/types';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

const source: LogSourceFieldsFragment = {
  id: 'b3c1d2e4-0000-4000-8000-000000000001',
  label: 'Org CloudTrail',
  transport: 'AWS_S3',
  logTypes: ['AWS.CloudTrail'],
  streamType: 'Lines',
  jsonArrayEnvelopeField: null,
  enabled: true,
  createdAt: '2026-11-21T10:00:00Z',
  createdBy: 'ada@example.com',
  updatedAt: '2026-11-21T10:00:00Z',
  updatedBy: 'ada@example.com',
  s3: {
    bucket: 'org-logs',
    kmsKey: null,
    roleArn: null,
    prefixes: [{ prefix: 'cloudtrail/', excludedPrefixes: [], logTypes: ['AWS.CloudTrail'] }],
  },
  sqs: null,
  http: null,
  health: { status: 'PENDING', checkedAt: null, lastEventAt: null },
};

describe('Set log stream type', () => {
  it('clears the field name when the enclosing-field toggle is turned off', async () => {
    const user = userEvent.setup();
    renderWithApi(
      <SetStreamTypeDrawer
        source={{ ...source, streamType: 'JsonArray', jsonArrayEnvelopeField: 'Records' }}
        opened
        onClose={() => undefined}
        onSave={async () => undefined}
      />,
    );
    const toggle = await screen.findByRole('switch', { name: 'The array is enclosed in a root field' });
    expect((screen.getByRole('textbox', { name: /Field name/ }) as HTMLInputElement).value).toBe('Records');
    await user.click(toggle);
    expect(screen.queryByRole('textbox', { name: /Field name/ })).toBeNull();
    await user.click(toggle);
    expect((screen.getByRole('textbox', { name: /Field name/ }) as HTMLInputElement).value).toBe('');
  });

  it('warns when the field name contains a dot, a bracket or a dollar sign', async () => {
    const user = userEvent.setup();
    renderWithApi(
      <SetStreamTypeDrawer
        source={{ ...source, streamType: 'JsonArray', jsonArrayEnvelopeField: 'Records' }}
        opened
        onClose={() => undefined}
        onSave={async () => undefined}
      />,
    );
    const field = await screen.findByRole('textbox', { name: /Field name/ });
    expect(screen.queryByText('Nested fields are not supported. Please ensure the field is at the root')).toBeNull();
    for (const nested of ['detail.records', 'items[0]', '$records']) {
      await user.clear(field);
      await user.type(field, nested.replace(/\[/g, '[['));
      expect(screen.getByText('Nested fields are not supported. Please ensure the field is at the root')).toBeTruthy();
    }
  });

  it('hands the choice over: the enclosing field, and none once the stream is not a JSON array', async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    renderWithApi(
      <SetStreamTypeDrawer
        source={{ ...source, streamType: 'JsonArray', jsonArrayEnvelopeField: 'Records' }}
        opened
        onClose={() => undefined}
        onSave={async (choice) => void saved.push(choice)}
      />,
    );
    const field = await screen.findByRole('textbox', { name: /Field name/ });
    await user.clear(field);
    await user.type(field, 'Items');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toEqual([{ streamType: 'JsonArray', jsonArrayEnvelopeField: 'Items' }]));
    await user.click(screen.getByRole('radio', { name: 'Lines' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toEqual({ streamType: 'Lines', jsonArrayEnvelopeField: null });
  });

  it('offers the five stream types', async () => {
    renderWithApi(<SetStreamTypeDrawer source={source} opened onClose={() => undefined} onSave={async () => undefined} />);
    for (const label of ['Auto', 'Lines', 'JSON', 'JSON Array', 'CloudWatch Logs'])
      expect(await screen.findByRole('radio', { name: label })).toBeTruthy();
  });
});

const page = (
  paginationToken: string | null,
  data: { s3Key: string; event: string | null; error: string | null }[],
  next: string | null,
) => ({
  request: {
    query: VIEW_BUCKET_DATA_QUERY,
    variables: {
      input: { sourceId: source.id, filters: { prefix: 'cloudtrail/' }, streamType: 'Lines', pageSize: 10, paginationToken },
    },
  },
  result: {
    data: {
      viewBucketData: {
        __typename: 'BucketDataPage',
        data: data.map((d) => ({ __typename: 'BucketDataRecord', ...d })),
        pageInfo: { __typename: 'BucketDataPageInfo', hasNextPage: next !== null, paginationToken: next },
      },
    },
  },
});

/** The sheet as the details page opens it: reading the bucket through the API. */
function BucketSheet() {
  const data = useBucketData(source, true);
  return <ViewBucketDataDrawer source={source} opened onClose={() => undefined} data={data} />;
}

describe('View bucket data', () => {
  const long = `{"eventName":"${'x'.repeat(400)}"}`;

  it('shows each object with its first events, slices long ones at 300 characters, and shows errors', async () => {
    const user = userEvent.setup();
    renderWithApi(<BucketSheet />, {
      mocks: [
        page(
          null,
          [
            { s3Key: 'cloudtrail/1.json.gz', event: long, error: null },
            { s3Key: 'cloudtrail/broken.gz', event: null, error: 'unexpected end of file' },
          ],
          null,
        ),
      ],
    });
    expect(await screen.findByText('cloudtrail/1.json.gz')).toBeTruthy();
    expect(screen.getByText(`${long.slice(0, SHOW_LOG_CHARS)}…`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Show Log' }));
    expect(screen.getByText(long)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide Log' })).toBeTruthy();
    expect(screen.getByText('unexpected end of file')).toBeTruthy();
  });

  it("says 'No Events found' when nothing is under the prefix", async () => {
    renderWithApi(<BucketSheet />, { mocks: [page(null, [], null)] });
    expect(await screen.findByText('No Events found')).toBeTruthy();
  });

  it('reads an S3 URL in the bucket as its prefix, and refuses a malformed one', async () => {
    const user = userEvent.setup();
    const under = page(null, [{ s3Key: 'cloudtrail/2026/1.json.gz', event: '{"a":1}', error: null }], null);
    under.request.variables.input.filters.prefix = 'cloudtrail/2026/';
    renderWithApi(<BucketSheet />, { mocks: [page(null, [], null), under] });
    await screen.findByText('No Events found');
    const field = screen.getByRole('textbox', { name: 'Prefix' });
    for (const bad of ['s3://', 's3://Not_A_Bucket/x', 's3://another-bucket/cloudtrail/']) {
      await user.clear(field);
      await user.type(field, `${bad}{Enter}`);
      expect(await screen.findByText('Please provide a properly formatted S3 url')).toBeTruthy();
    }
    await user.clear(field);
    expect(screen.queryByText('Please provide a properly formatted S3 url')).toBeNull();
    await user.type(field, 's3://org-logs/cloudtrail/2026/{Enter}');
    expect(await screen.findByText('cloudtrail/2026/1.json.gz')).toBeTruthy();
  });

  it('loads the next page with the pagination token once scrolled within 500 px of the end', async () => {
    renderWithApi(<BucketSheet />, {
      mocks: [
        page(null, [{ s3Key: 'cloudtrail/1.json.gz', event: '{"a":1}', error: null }], 'token-1'),
        page('token-1', [{ s3Key: 'cloudtrail/2.json.gz', event: '{"a":2}', error: null }], null),
      ],
    });
    await screen.findByText('cloudtrail/1.json.gz');
    const list = screen.getByTestId('bucket-data-list');
    Object.defineProperty(list, 'scrollHeight', { configurable: true, value: 3000 });
    Object.defineProperty(list, 'clientHeight', { configurable: true, value: 800 });
    list.scrollTop = 3000 - 800 - LOAD_MORE_THRESHOLD_PX - 100;
    fireEvent.scroll(list);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('cloudtrail/2.json.gz')).toBeNull();
    list.scrollTop = 3000 - 800 - LOAD_MORE_THRESHOLD_PX + 10;
    fireEvent.scroll(list);
    await waitFor(() => expect(screen.getByText('cloudtrail/2.json.gz')).toBeTruthy());
    expect(screen.getByText('cloudtrail/1.json.gz')).toBeTruthy();
  });
});
