// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { createColumnHelper } from '@tanstack/react-table';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DataTable, PAGE_SIZES } from '../../web/src/components/DataTable';
import { renderInApp } from './support/render';

afterEach(cleanup);
// jsdom has no scrolling; the page-size picker scrolls its selected option into view.
beforeAll(() => {
  Element.prototype.scrollIntoView = () => {};
});

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

  it('sorts by a header on click, ascending then descending, and says so with aria-sort', () => {
    const data = [
      { id: 'b', label: 'Bravo' },
      { id: 'c', label: 'Charlie' },
      { id: 'a', label: 'Alpha' },
    ];
    renderInApp(<DataTable data={data} columns={COLUMNS} getRowId={(s) => s.id} label="Log sources" rowHeight={50} sortable />);
    const header = screen.getByRole('columnheader', { name: 'Source' });
    expect(header.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(header).getByRole('button', { name: 'Source' }));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    expect(bodyRows().map((row) => row.textContent)).toEqual(['Alpha', 'Bravo', 'Charlie']);
    fireEvent.click(within(header).getByRole('button', { name: 'Source' }));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(bodyRows().map((row) => row.textContent)).toEqual(['Charlie', 'Bravo', 'Alpha']);
  });

  it('shows a paged list 25 rows at a time, in pages of the page sizes 10, 25 or 999', async () => {
    expect(PAGE_SIZES).toEqual([10, 25, 999]);
    renderInApp(
      <DataTable data={sources(30)} columns={COLUMNS} getRowId={(s) => s.id} label="Log sources" rowHeight={50} paged />,
    );
    expect(screen.getByRole('table', { name: 'Log sources' }).getAttribute('aria-rowcount')).toBe('31');
    const pageSize = screen.getAllByLabelText('Rows per page').find((element) => element.tagName === 'INPUT') as HTMLInputElement;
    expect(pageSize.value).toBe('25');
    expect(screen.getByRole('button', { name: 'Page 2' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Page 3' })).toBeNull();
    fireEvent.click(pageSize);
    fireEvent.click(await screen.findByRole('option', { name: '10' }));
    expect(bodyRows().map((row) => row.textContent)).toEqual(sources(10).map((s) => s.label));
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(bodyRows().map((row) => row.textContent)).toEqual(
      sources(30)
        .slice(20)
        .map((s) => s.label),
    );
    expect(bodyRows()[0].getAttribute('aria-rowindex')).toBe('22');
  });

  it('scrolls sideways when its columns do not fit', () => {
    renderInApp(
      <DataTable data={sources(3)} columns={COLUMNS} getRowId={(s) => s.id} label="Log sources" rowHeight={50} minWidth={1000} />,
    );
    const table = screen.getByRole('table', { name: 'Log sources' });
    expect(table.style.minWidth).toBe('1000px');
    const scrollbar = table.closest('.mantine-ScrollArea-root')!.querySelector('[data-orientation="horizontal"]');
    expect(scrollbar).not.toBeNull();
  });
});
