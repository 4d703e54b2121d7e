// @vitest-environment jsdom
// The schema viewer sidesheet: opened from a log source's log types at /configure/log-sources/{id}/schemas/,
// one tab per schema name, each read when shown; closing it goes back to the source.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MockLink } from '@apollo/client/testing';
import { Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { LOG_SOURCE_ROUTES, logSourceSchemasPath, logSourcePath } from '../../web/src/app/routes';
import { LogSourceDetailsPage } from '../../web/src/screens/LogSources/LogSourceDetailsPage';
import { LOG_SOURCE_QUERY, LOG_SOURCE_SCHEMA_QUERY } from '../../web/src/screens/LogSources/logSources.operations';
import { renderWithApi } from './support/shell';

afterEach(cleanup);

const ID = 'b3c1d2e4-0000-4000-8000-000000000002';

const sourceMock: MockLink.MockedResponse = {
  request: { query: LOG_SOURCE_QUERY, variables: { id: ID } },
  result: {
    data: {
      logSource: {
        __typename: 'LogSource',
        id: ID,
        label: 'Identity logs',
        transport: 'HTTP',
        logTypes: ['Okta.SystemLog', 'GitHub.Audit'],
        streamType: 'Auto',
        jsonArrayEnvelopeField: null,
        enabled: true,
        createdAt: '2026-11-21T10:00:00Z',
        createdBy: 'ada@example.com',
        updatedAt: '2026-11-21T10:00:00Z',
        updatedBy: 'ada@example.com',
        s3: null,
        sqs: null,
        http: null,
        health: { __typename: 'SourceHealthSummary', status: 'PENDING', checkedAt: null, lastEventAt: null },
      },
    },
  },
  maxUsageCount: Number.POSITIVE_INFINITY,
};

function schemaMock(name: string, description: string | null): MockLink.MockedResponse {
  return {
    request: { query: LOG_SOURCE_SCHEMA_QUERY, variables: { name } },
    result: {
      data: {
        getSchema: {
          __typename: 'GetSchemaOutput',
          schema: {
            __typename: 'Schema',
            name,
            description,
            referenceURL: null,
            spec: `# ${name}\nfields:\n  - name: id\n    type: string\n`,
            isManaged: true,
          },
          error: null,
        },
      },
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
}

function renderSourceAt(path: string) {
  return renderWithApi(
    <Routes>
      <Route path={LOG_SOURCE_ROUTES.details} element={<LogSourceDetailsPage />} />
      <Route path={LOG_SOURCE_ROUTES.schemas} element={<LogSourceDetailsPage />} />
    </Routes>,
    {
      at: path,
      permissions: ['LogSourceRead'],
      mocks: [sourceMock, schemaMock('Okta.SystemLog', 'Okta system log events'), schemaMock('GitHub.Audit', null)],
    },
  );
}

const sheet = () => screen.findByRole('dialog', { name: 'Schemas' });

describe('the schema viewer sidesheet', () => {
  it('has its own path under the log source', () => {
    expect(LOG_SOURCE_ROUTES.schemas).toBe('/configure/log-sources/:id/schemas/');
    expect(logSourceSchemasPath('a/b')).toBe('/configure/log-sources/a%2Fb/schemas/');
  });

  it('opens at the schemas path with one tab per schema name, each schema read when its tab is shown', async () => {
    renderSourceAt(logSourceSchemasPath(ID));
    const drawer = await sheet();
    const tabs = within(drawer).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Okta.SystemLog', 'GitHub.Audit']);
    expect(tabs[0].getAttribute('aria-selected')).toBe('true');
    expect(await within(drawer).findByText('Okta system log events')).toBeTruthy();
    expect(within(drawer).getByLabelText('Okta.SystemLog YAML').textContent).toContain('# Okta.SystemLog');

    fireEvent.click(tabs[1]);
    expect(await within(drawer).findByText('No schema description')).toBeTruthy();
    expect(within(drawer).getByText('No schema reference link')).toBeTruthy();
    expect(within(drawer).getByLabelText('GitHub.Audit YAML').textContent).toContain('# GitHub.Audit');
  });

  it('opens from the log types on the source page and closes back to it', async () => {
    renderSourceAt(logSourcePath(ID));
    fireEvent.click(await screen.findByRole('link', { name: 'View schemas' }));
    const drawer = await sheet();
    expect(within(drawer).getAllByRole('tab')).toHaveLength(2);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Close schemas' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Schemas' })).toBeNull());
    expect(screen.getByRole('link', { name: 'View schemas' })).toBeTruthy();
  });
});
