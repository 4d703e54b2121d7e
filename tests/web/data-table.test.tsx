// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { createColumnHelper } from '@tanstack/react-table';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable } from '../../web/src/components/DataTable';
import { renderInApp } from './support/render';

afterEach(cleanup);

interface Source {
  readonly id: string;
  readonly label: string;
}
const column = createColumnHelper<Source>();
const COLUMNS = [column.accessor('label', { header: 'Source' })];
const sources = (n: number): Source[] => Array.from({ length: n }, (_, i) => ({ id: `s${i}`, label: `Source ${i}` }));

function bodyRows(): HTMLElement[] {
  const table = screen.getByRole('table', { name: 'Log sources' });
  return within(table)
    .getAllByRole('row')
    .filter((row) => !row.querySelector('th') && row.getAttribute('aria-hidden') !== 'true');
}

describe('DataTable', () => {
  it('renders every row of a short list under its headers', () => {
    renderInApp(<DataTable data={sources(10)} columns={COLUMNS} getRowId={(s) => s.id} label="Log sources" rowHeight={50} />);
    expect(screen.getByRole('columnheader', { name: 'Source' })).toBeTruthy();
    expect(bodyRows().map((row) => row.textContent)).toEqual(sources(10).map((s) => s.label));
  });

  it('renders only the visible rows of a long list, and keeps the header', () => {
    renderInApp(<DataTable data={sources(5000)} columns={COLUMNS} getRowId={(s) => s.id} label="Log sources" rowHeight={50} />);
    expect(screen.getByRole('columnheader', { name: 'Source' })).toBeTruthy();
    expect(bodyRows().length).toBeLessThan(100);
  });
});
