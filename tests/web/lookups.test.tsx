// @vitest-environment jsdom
// The lookup-table pieces of the SPA: selector completions from a schema spec, the data preview (rows as
// text, rows left out), "test a value", and the form's own checks before anything is sent.
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataPreview } from '../../web/src/features/lookups/DataPreview';
import { sourcePermissionError } from '../../core/lookups/index';
import type { Permission } from '../../core/permissions';
import { emptyLookupForm, LookupTableForm, toLookupInput } from '../../web/src/features/lookups/LookupTableForm';
import { INDICATOR_SELECTORS, schemaSelectors } from '../../web/src/features/lookups/schemaSelectors';
import { TestValueBox } from '../../web/src/features/lookups/TestValueBox';
import { renderInApp } from './support/render';

afterEach(cleanup);

describe('schemaSelectors', () => {
  it('offers every field path as a selector, arrays with [*], then the indicator fields', () => {
    const spec = [
      'fields:',
      '  - name: sourceIPAddress',
      '    type: string',
      '  - name: userIdentity',
      '    type: object',
      '    fields:',
      '      - name: arn',
      '        type: string',
      '  - name: hops',
      '    type: array',
      '    element:',
      '      type: object',
      '      fields:',
      '        - name: ip',
      '          type: string',
      '  - name: odd key',
      '    type: string',
    ].join('\n');
    expect(schemaSelectors(spec)).toEqual([
      '$.sourceIPAddress',
      '$.userIdentity.arn',
      '$.hops[*]',
      '$.hops[*].ip',
      "$['odd key']",
      ...INDICATOR_SELECTORS,
    ]);
    expect(schemaSelectors('fields: [unclosed')).toEqual(INDICATOR_SELECTORS);
  });
});

describe('DataPreview', () => {
  it('shows rows as text and the rows left out', () => {
    renderInApp(
      <DataPreview
        preview={{
          columns: [
            { name: 'cidr', type: 'string' },
            { name: 'note', type: 'string' },
          ],
          rows: [JSON.stringify({ cidr: '10.0.0.0/8', note: '<img src=x onerror=alert(1)>' })],
          rowCount: 1,
          skippedCount: 1,
          skipped: [{ row: 3, reason: "'x' is not a CIDR or IP address" }],
        }}
      />,
    );
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByText('1 rows will be left out')).toBeTruthy();
    expect(screen.getByText("Row 3: 'x' is not a CIDR or IP address")).toBeTruthy();
  });
});

describe('TestValueBox', () => {
  it('asks for a value, then shows the matching row or that none matches', async () => {
    const user = userEvent.setup();
    const onTest = vi.fn(async (key: string) =>
      key === '10.1.2.3'
        ? { matched: true, row: JSON.stringify({ cidr: '10.1.0.0/16', site: 'office' }) }
        : { matched: false, row: null },
    );
    renderInApp(<TestValueBox keyType="CIDR" onTest={onTest} />);
    await user.click(screen.getByRole('button', { name: 'Test' }));
    expect(screen.getByText('Enter a value to test')).toBeTruthy();
    expect(onTest).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox', { name: /Test a value/ }), '10.1.2.3{Enter}');
    expect(await screen.findByText('10.1.2.3 matches a row')).toBeTruthy();
    expect(screen.getByText(/"site": "office"/)).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: /Test a value/ }));
    await user.type(screen.getByRole('textbox', { name: /Test a value/ }), '192.0.2.1{Enter}');
    expect(await screen.findByText('192.0.2.1 matches no row')).toBeTruthy();
  });
});

describe('LookupTableForm', () => {
  it('checks the fields before saving and sends nothing while they are wrong', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(async () => undefined);
    renderInApp(
      <LookupTableForm
        initial={emptyLookupForm()}
        editing={false}
        logTypes={['AWS.CloudTrail']}
        selectorsFor={() => []}
        onLogTypeChosen={() => {}}
        onFile={async () => {
          throw new Error('unused');
        }}
        onSubmit={onSubmit}
        onCancel={() => {}}
      />,
    );
    await user.type(screen.getByRole('textbox', { name: /Name/ }), '1 bad');
    await user.click(screen.getByRole('button', { name: 'Create table' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getAllByText(/Must start with a letter/).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Upload a CSV or JSON file').length).toBeGreaterThan(0);
  });

  const form = (permissions?: Permission[], initial = emptyLookupForm(), editing = false) => (
    <LookupTableForm
      initial={initial}
      permissions={permissions}
      editing={editing}
      logTypes={['AWS.CloudTrail']}
      selectorsFor={() => []}
      onLogTypeChosen={() => {}}
      onFile={async () => {
        throw new Error('unused');
      }}
      onSubmit={async () => undefined}
      onCancel={() => {}}
    />
  );
  const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;

  it('offers a scheduled query and an S3 object only to users whose role allows them, saying why', () => {
    renderInApp(form(['LookupRead', 'LookupModify']));
    expect(radio('File upload').disabled).toBe(false);
    expect(radio('S3 object').disabled).toBe(true);
    expect(radio('Scheduled query').disabled).toBe(true);
    expect(screen.getByText(`Scheduled query: ${sourcePermissionError('QUERY', [])}.`)).toBeTruthy();
    expect(screen.getByText(`S3 object: ${sourcePermissionError('S3', [])}.`)).toBeTruthy();
    cleanup();

    renderInApp(form(['LookupModify', 'DataAnalyticsRead']));
    expect(radio('Scheduled query').disabled).toBe(false);
    expect(radio('S3 object').disabled).toBe(true);
    cleanup();

    // permissions not known yet: everything is offered, the server decides
    renderInApp(form(undefined));
    expect(radio('S3 object').disabled).toBe(false);
    expect(radio('Scheduled query').disabled).toBe(false);
  });

  it("keeps a saved query that the user may not change read-only, and the table's other settings editable", () => {
    renderInApp(form(['LookupModify'], { ...emptyLookupForm(), sourceKind: 'QUERY', query: 'SELECT 1 AS k' }, true));
    expect(radio('Scheduled query').disabled).toBe(false);
    expect(radio('S3 object').disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Query' }) as HTMLTextAreaElement).readOnly).toBe(true);
    expect(screen.getByText("This table's query stays as it is")).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /Name/ }) as HTMLInputElement).readOnly).toBe(false);
  });

  it('turns the form into the API input of its source kind', () => {
    const values = {
      ...emptyLookupForm('TOR_EXIT_NODES'),
      sourceKind: 'S3' as const,
      location: ' s3://b/k.csv ',
      refreshMinutes: 30,
    };
    expect(toLookupInput(values, 'TOR_EXIT_NODES')).toMatchObject({
      name: 'tor_exit_nodes',
      primaryKey: 'ip',
      keyType: 'CIDR',
      provider: 'TOR_EXIT_NODES',
      source: { kind: 'S3', location: 's3://b/k.csv', refreshMinutes: 30, query: null },
    });
  });
});
