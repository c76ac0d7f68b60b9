import type { ReactNode } from 'react';

/** The page-size value that means "All" (spec point 9: All, 5, 10, 20, 50, 100, 200; default 20). */
export const ALL_ROWS = 0;
export const PAGE_SIZE_OPTIONS = [ALL_ROWS, 5, 10, 20, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 20;

export type SortDirection = 'desc' | 'asc';
export interface SortState {
  key: string;
  direction: SortDirection;
}
export type Key = string | number;
export type Sortable = string | number | boolean | Date | null | undefined;

export interface DataTableColumn<T> {
  key: string;
  header: string;
  /** What the cell shows; defaults to `value`. */
  render?: (row: T) => ReactNode;
  /** The plain value used to sort and search. */
  value?: (row: T) => Sortable;
  sortable?: boolean;
  /** Offered in the search-by selector (default: true when the column has a value). */
  searchable?: boolean;
}

/** What both layouts draw: this page's rows, the columns, and the loading, error and empty states. */
export interface RowsProps<T> {
  rows: T[];
  columns: DataTableColumn<T>[];
  rowKey: (row: T) => Key;
  loading: boolean;
  error: string | null;
  emptyText: string;
  selectable: boolean;
}

/** Server-side pagination: the caller owns page and page size and loads one page at a time. */
export interface ServerPagination {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (pageSize: number) => void;
  /** How many rows the server returns for "All" (its largest page); defaults to `total`. */
  allSize?: number;
}

/** What a cell shows: its renderer, else its plain value. */
export function cellOf<T>(c: DataTableColumn<T>, row: T): ReactNode {
  return c.render ? c.render(row) : String(c.value?.(row) ?? '');
}
