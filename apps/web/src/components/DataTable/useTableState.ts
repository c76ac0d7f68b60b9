import { useMemo, useState } from 'react';
import { filterAndSort } from './sortAndSearch.ts';
import { ALL_ROWS, type DataTableColumn, type Key, type ServerPagination, type SortState } from './types.ts';

interface TableStateInput<T> {
  columns: DataTableColumn<T>[];
  rows: T[];
  rowKey: (row: T) => Key;
  selected?: Key[];
  onSelectedChange?: (keys: Key[]) => void;
  pagination?: ServerPagination;
  defaultPageSize: number;
}

/**
 * The table's state and what follows from it: search, sort, the page shown (its own, or the caller's
 * with `pagination`) and the row selection (its own, or the caller's with `selected`).
 */
export function useTableState<T>({
  columns,
  rows,
  rowKey,
  selected,
  onSelectedChange,
  pagination,
  defaultPageSize,
}: TableStateInput<T>) {
  const [query, setQuery] = useState('');
  const [searchBy, setSearchBy] = useState('');
  const [sort, setSort] = useState<SortState | null>(null);
  const [ownPage, setOwnPage] = useState(1);
  const [ownPageSize, setOwnPageSize] = useState(defaultPageSize);
  const [ownSelected, setOwnSelected] = useState<Key[]>([]);
  const chosen = selected ?? ownSelected;
  const setChosen = (keys: Key[]) => {
    if (!selected) setOwnSelected(keys);
    onSelectedChange?.(keys);
  };

  const searchColumns = useMemo(() => columns.filter((c) => c.searchable ?? Boolean(c.value)), [columns]);
  const visible = useMemo(
    () =>
      filterAndSort(
        rows,
        searchBy ? searchColumns.filter((c) => c.key === searchBy) : searchColumns,
        query,
        sort,
        columns,
      ),
    [rows, searchColumns, searchBy, query, sort, columns],
  );

  const serverMode = Boolean(pagination);
  const page = pagination?.page ?? ownPage;
  const pageSize = pagination?.pageSize ?? ownPageSize;
  const total = pagination ? pagination.total : visible.length;
  const effectiveSize = pageSize === ALL_ROWS ? (pagination?.allSize ?? Math.max(total, 1)) : pageSize;
  const lastPage = Math.max(1, Math.ceil(total / effectiveSize));
  const current = Math.min(page, lastPage);
  const pageRows = serverMode ? visible : visible.slice((current - 1) * effectiveSize, current * effectiveSize);

  const goTo = (p: number) => {
    const target = Math.min(Math.max(1, p), lastPage);
    if (pagination) pagination.onPageChange(target);
    else setOwnPage(target);
  };
  const changeSize = (size: number) => {
    if (pagination) {
      pagination.onPageSizeChange(size);
      pagination.onPageChange(1);
    } else {
      setOwnPageSize(size);
      setOwnPage(1);
    }
  };
  const search = (text: string) => {
    setQuery(text);
    if (!serverMode) setOwnPage(1);
  };

  const pageKeys = pageRows.map(rowKey);
  const allOnPage = pageKeys.length > 0 && pageKeys.every((k) => chosen.includes(k));
  const someOnPage = pageKeys.some((k) => chosen.includes(k));
  const toggleAll = () =>
    setChosen(allOnPage ? chosen.filter((k) => !pageKeys.includes(k)) : [...new Set([...chosen, ...pageKeys])]);
  const toggleRow = (k: Key) => setChosen(chosen.includes(k) ? chosen.filter((x) => x !== k) : [...chosen, k]);

  return {
    search: { query, setQuery: search, searchBy, setSearchBy, searchColumns },
    sort: { sort, setSort },
    paging: { pageRows, current, pageSize, effectiveSize, total, goTo, changeSize },
    selection: { chosen, allOnPage, someOnPage, nothingToSelect: pageKeys.length === 0, toggleAll, toggleRow },
  };
}

export type TableSelection = ReturnType<typeof useTableState>['selection'];
