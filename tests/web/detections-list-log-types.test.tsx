// @vitest-environment jsdom
// The detections list's Log Types cell: a rule's (and a policy's) log types as chips; a scheduled rule, which has
// no log types of its own, shows its scheduled queries under a "Scheduled Queries" label instead, so a query's
// name is not read as a log type; a scheduled rule without queries shows the dash.
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { theme } from '../../web/src/app/theme';
import { DetectionsTable, type DetectionRow } from '../../web/src/features/detections/list/DetectionsTable';
import { installBrowserStandIns } from './support/render';

afterEach(cleanup);

const row = (id: string, analysisType: DetectionRow['analysisType'], logTypes: string[]): DetectionRow =>
  ({
    __typename: 'DetectionListItem',
    id,
    analysisType,
    displayName: id,
    enabled: true,
    status: null,
    severity: 'HIGH',
    logTypes,
    tags: [],
    outputIds: [],
    isSimpleDetection: false,
    managed: false,
    lastModified: '2026-11-20T10:00:00Z',
  }) as DetectionRow;

function renderTable(rows: DetectionRow[]) {
  installBrowserStandIns();
  render(
    <MantineProvider theme={theme}>
      <MemoryRouter>
        <DetectionsTable
          rows={rows}
          selected={new Set()}
          onSelect={() => undefined}
          canModify={() => false}
          onToggleEnabled={() => undefined}
          busy={new Set()}
        />
      </MemoryRouter>
    </MantineProvider>,
  );
  const cellOf = (name: string) => {
    const tr = screen.getByRole('link', { name }).closest('tr')!;
    const header = screen.getAllByRole('columnheader').findIndex((h) => h.textContent === 'Log Types');
    expect(header).toBeGreaterThan(-1);
    return tr.querySelectorAll('td')[header] as HTMLElement;
  };
  return cellOf;
}

describe('the Log Types cell', () => {
  it("shows a scheduled rule's queries under a Scheduled Queries label, and log types plainly otherwise", () => {
    const cellOf = renderTable([
      row('Okta.Rule', 'RULE', ['Okta.SystemLog']),
      row('Root.Logins', 'SCHEDULED_RULE', ['Root Logins Every 6 Hours']),
      row('S3.Policy', 'POLICY', ['AWS.S3.Bucket']),
      row('Empty.Scheduled', 'SCHEDULED_RULE', []),
    ]);

    const scheduled = cellOf('Root.Logins');
    const group = within(scheduled).getByRole('group', { name: 'Scheduled Queries' });
    expect(within(group).getByText('Scheduled Queries')).toBeTruthy();
    expect(within(group).getByText('Root Logins Every 6 Hours')).toBeTruthy();

    const rule = cellOf('Okta.Rule');
    expect(within(rule).getByText('Okta.SystemLog')).toBeTruthy();
    expect(within(rule).queryByText('Scheduled Queries')).toBeNull();
    expect(within(cellOf('S3.Policy')).queryByRole('group', { name: 'Scheduled Queries' })).toBeNull();

    const empty = cellOf('Empty.Scheduled');
    expect(empty.textContent).toBe('—');
  });
});
