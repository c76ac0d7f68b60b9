import type { DataTableColumn, Sortable, SortState } from './types.ts';

/** none → descending → ascending → none. */
export function nextSort(current: SortState | null, key: string): SortState | null {
  if (!current || current.key !== key) return { key, direction: 'desc' };
  if (current.direction === 'desc') return { key, direction: 'asc' };
  return null;
}

function comparable(v: Sortable): string | number {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null || v === undefined) return '';
  return v;
}
function compare(a: Sortable, b: Sortable): number {
  const x = comparable(a);
  const y = comparable(b);
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return String(x).localeCompare(String(y), undefined, { numeric: true, sensitivity: 'base' });
}

function textOf<T>(c: DataTableColumn<T>, row: T): string {
  const v = c.value?.(row);
  return v instanceof Date ? v.toISOString() : String(v ?? '');
}

/** Rows matching the search (case-insensitive, in the given columns), in the chosen order. */
export function filterAndSort<T>(
  rows: T[],
  searchIn: DataTableColumn<T>[],
  query: string,
  sort: SortState | null,
  columns: DataTableColumn<T>[],
): T[] {
  const needle = query.trim().toLowerCase();
  let out = rows;
  if (needle) out = out.filter((row) => searchIn.some((c) => textOf(c, row).toLowerCase().includes(needle)));
  const value = sort ? columns.find((c) => c.key === sort.key)?.value : undefined;
  if (sort && value) {
    const sign = sort.direction === 'asc' ? 1 : -1;
    out = [...out].sort((a, b) => sign * compare(value(a), value(b)));
  }
  return out;
}
