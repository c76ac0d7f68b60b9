import { useState } from 'react';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { ALL_ROWS, DataTable, nextSort, type DataTableColumn } from './DataTable.tsx';
import { PHONE_QUERY } from '../../config/theme.ts';

interface Crop {
  id: number;
  name: string;
  acres: number;
}
const crops: Crop[] = Array.from({ length: 42 }, (_, i) => ({
  id: i + 1,
  name: `${['Maize', 'Beans', 'Wheat'][i % 3]} ${String(i + 1).padStart(2, '0')}`,
  acres: (i * 7) % 13,
}));
const columns: DataTableColumn<Crop>[] = [
  { key: 'name', header: 'Name', value: (r) => r.name, sortable: true },
  { key: 'acres', header: 'Acres', value: (r) => r.acres, sortable: true, searchable: false },
];

const isDisabled = (el: HTMLElement) => (el as HTMLButtonElement).disabled;

function bodyRows() {
  const [, body] = screen.getAllByRole('rowgroup');
  return within(body).getAllByRole('row');
}
function firstCells() {
  return bodyRows().map((r) => within(r).getAllByRole('cell')[0].textContent);
}

describe('DataTable', () => {
  it('shows the title, pages 20 rows by default and labels the range', () => {
    renderWithProviders(<DataTable title="Crops" columns={columns} rows={crops} rowKey={(r) => r.id} />);
    expect(screen.getByRole('heading', { name: 'Crops' })).toBeTruthy();
    expect(bodyRows()).toHaveLength(20);
    expect(screen.getByText('1–20 of 42')).toBeTruthy();
    expect((screen.getByLabelText('Rows per page') as HTMLSelectElement).value).toBe('20');
  });

  it('moves with first, previous, next and last, disabling them at the ends', () => {
    renderWithProviders(<DataTable columns={columns} rows={crops} rowKey={(r) => r.id} />);
    const first = screen.getByRole('button', { name: 'First page' });
    const previous = screen.getByRole('button', { name: 'Previous page' });
    const next = screen.getByRole('button', { name: 'Next page' });
    const last = screen.getByRole('button', { name: 'Last page' });
    expect(isDisabled(first)).toBe(true);
    expect(isDisabled(previous)).toBe(true);
    fireEvent.click(next);
    expect(screen.getByText('21–40 of 42')).toBeTruthy();
    fireEvent.click(last);
    expect(screen.getByText('41–42 of 42')).toBeTruthy();
    expect(bodyRows()).toHaveLength(2);
    expect(isDisabled(next)).toBe(true);
    expect(isDisabled(last)).toBe(true);
    fireEvent.click(previous);
    expect(screen.getByText('21–40 of 42')).toBeTruthy();
    fireEvent.click(first);
    expect(screen.getByText('1–20 of 42')).toBeTruthy();
  });

  it('offers All, 5, 10, 20, 50, 100 and 200 rows per page; All shows every row', () => {
    renderWithProviders(<DataTable columns={columns} rows={crops} rowKey={(r) => r.id} />);
    const select = screen.getByLabelText('Rows per page');
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual(['All', '5', '10', '20', '50', '100', '200']);
    fireEvent.change(select, { target: { value: String(ALL_ROWS) } });
    expect(bodyRows()).toHaveLength(42);
    expect(screen.getByText('1–42 of 42')).toBeTruthy();
    expect(isDisabled(screen.getByRole('button', { name: 'Next page' }))).toBe(true);
    fireEvent.change(select, { target: { value: '5' } });
    expect(screen.getByText('1–5 of 42')).toBeTruthy();
  });

  it('cycles a column sort none → descending → ascending → none', () => {
    renderWithProviders(<DataTable columns={columns} rows={crops.slice(0, 5)} rowKey={(r) => r.id} />);
    const header = screen.getByRole('columnheader', { name: /Acres/ });
    const button = screen.getByRole('button', { name: 'Sort by Acres' });
    const acres = () => bodyRows().map((r) => Number(within(r).getAllByRole('cell')[1].textContent));
    const original = acres();
    expect(header.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(button);
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(acres()).toEqual([...original].sort((a, b) => b - a));
    fireEvent.click(button);
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    expect(acres()).toEqual([...original].sort((a, b) => a - b));
    fireEvent.click(button);
    expect(header.getAttribute('aria-sort')).toBe('none');
    expect(acres()).toEqual(original);
  });

  it('computes the sort cycle', () => {
    expect(nextSort(null, 'a')).toEqual({ key: 'a', direction: 'desc' });
    expect(nextSort({ key: 'a', direction: 'desc' }, 'a')).toEqual({ key: 'a', direction: 'asc' });
    expect(nextSort({ key: 'a', direction: 'asc' }, 'a')).toBeNull();
    expect(nextSort({ key: 'a', direction: 'asc' }, 'b')).toEqual({ key: 'b', direction: 'desc' });
  });

  it('searches all searchable columns or the chosen one, and says No results', () => {
    const cols: DataTableColumn<Crop>[] = [...columns, { key: 'code', header: 'Code', value: (r) => `C-${r.id}` }];
    renderWithProviders(<DataTable columns={cols} rows={crops} rowKey={(r) => r.id} />);
    const by = screen.getByLabelText('Search by');
    expect(
      within(by)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All columns', 'Name', 'Code']);
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'beans' } });
    expect(bodyRows()).toHaveLength(14);
    expect(firstCells().every((c) => c?.startsWith('Beans'))).toBe(true);
    expect(screen.getByText('1–14 of 14')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'C-7' } });
    expect(firstCells()).toEqual(['Maize 07']);
    fireEvent.change(by, { target: { value: 'name' } });
    expect(screen.getByText('No results')).toBeTruthy();
    expect(screen.getByText('0–0 of 0')).toBeTruthy();
  });

  it('selects rows with checkboxes, one by one or the whole page', () => {
    const onSelectedChange = vi.fn();
    renderWithProviders(
      <DataTable
        columns={columns}
        rows={crops.slice(0, 3)}
        rowKey={(r) => r.id}
        selectable
        onSelectedChange={onSelectedChange}
      />,
    );
    const rowBoxes = screen.getAllByRole('checkbox', { name: 'Select row' });
    fireEvent.click(rowBoxes[1]);
    expect(onSelectedChange).toHaveBeenLastCalledWith([2]);
    expect(screen.getByText('1 selected')).toBeTruthy();
    const all = screen.getByRole('checkbox', { name: 'Select all rows on this page' });
    fireEvent.click(all);
    expect(onSelectedChange).toHaveBeenLastCalledWith([2, 1, 3]);
    expect(screen.getByText('3 selected')).toBeTruthy();
    fireEvent.click(all);
    expect(onSelectedChange).toHaveBeenLastCalledWith([]);
  });

  it('shows a loading indicator, an error, and No results', () => {
    const loading = renderWithProviders(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} loading />);
    expect(screen.getByRole('status').textContent).toContain('Loading');
    expect(screen.queryByText('No results')).toBeNull();
    loading.unmount();
    const failed = renderWithProviders(
      <DataTable columns={columns} rows={[]} rowKey={(r) => r.id} error="Could not load crops" />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Could not load crops');
    failed.unmount();
    renderWithProviders(<DataTable columns={columns} rows={[]} rowKey={(r) => r.id} />);
    expect(screen.getByText('No results')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('pages through a server list under the caller’s control', () => {
    const onPageChange = vi.fn();
    function ServerTable() {
      const [page, setPage] = useState(1);
      const [pageSize, setPageSize] = useState(10);
      const rows = crops.slice((page - 1) * pageSize, page * pageSize);
      return (
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(r) => r.id}
          pagination={{
            page,
            pageSize,
            total: crops.length,
            onPageChange: (p) => {
              onPageChange(p);
              setPage(p);
            },
            onPageSizeChange: setPageSize,
          }}
        />
      );
    }
    renderWithProviders(<ServerTable />);
    expect(bodyRows()).toHaveLength(10);
    expect(screen.getByText('1–10 of 42')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(5);
    expect(screen.getByText('41–42 of 42')).toBeTruthy();
    expect(firstCells()).toEqual(['Beans 41', 'Wheat 42']);
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '20' } });
    expect(onPageChange).toHaveBeenLastCalledWith(1);
    expect(screen.getByText('1–20 of 42')).toBeTruthy();
  });
});

describe('DataTable on a phone', () => {
  /** matchMedia that answers the card breakpoint as a 390 px screen would. */
  function phoneScreen() {
    const plain = window.matchMedia.bind(window);
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({ ...plain(query), matches: query === PHONE_QUERY }));
  }
  afterEach(() => vi.restoreAllMocks());

  const withAction: DataTableColumn<Crop>[] = [
    ...columns,
    { key: 'actions', header: 'Actions', render: (r) => <button type="button">Remove {r.name}</button> },
  ];

  it('shows each row as a card with every column, the action included, and no table', () => {
    phoneScreen();
    renderWithProviders(<DataTable columns={withAction} rows={crops} rowKey={(r) => r.id} defaultPageSize={5} />);
    expect(screen.queryByRole('table')).toBeNull();
    const cards = screen.getAllByTestId('data-card');
    expect(cards).toHaveLength(5);
    expect(within(cards[0]).getByText('Name')).toBeTruthy();
    expect(within(cards[0]).getByText('Maize 01')).toBeTruthy();
    expect(within(cards[0]).getByRole('button', { name: 'Remove Maize 01' })).toBeTruthy();
    expect(screen.getByText('1–5 of 42')).toBeTruthy();
  });

  it('sorts the cards with the Order select and selects them with checkboxes', () => {
    phoneScreen();
    const onSelectedChange = vi.fn();
    renderWithProviders(
      <DataTable columns={columns} rows={crops} rowKey={(r) => r.id} selectable onSelectedChange={onSelectedChange} />,
    );
    fireEvent.change(screen.getByLabelText('Order'), { target: { value: 'name:desc' } });
    expect(within(screen.getAllByTestId('data-card')[0]).getByText('Wheat 42')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Select all rows on this page'));
    expect(onSelectedChange).toHaveBeenLastCalledWith(expect.arrayContaining([42]));
    expect(onSelectedChange.mock.lastCall?.[0]).toHaveLength(20);
  });
});
