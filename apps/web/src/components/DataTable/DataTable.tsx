import { useMemo, useState, type ReactNode } from 'react';
import {
  Box,
  Center,
  Checkbox,
  Group,
  Loader,
  LoadingOverlay,
  NativeSelect,
  Paper,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { PHONE_QUERY } from '../../config/theme.ts';
import { ListPagination } from '../ListPagination.tsx';
import { useTranslation } from 'react-i18next';

/** The page-size value that means "All" (spec point 9: All, 5, 10, 20, 50, 100, 200; default 20). */
export const ALL_ROWS = 0;
export const PAGE_SIZE_OPTIONS = [ALL_ROWS, 5, 10, 20, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 20;

export type SortDirection = 'desc' | 'asc';
export interface SortState {
  key: string;
  direction: SortDirection;
}
type Key = string | number;
type Sortable = string | number | boolean | Date | null | undefined;

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

export interface DataTableProps<T> {
  title?: ReactNode;
  columns: DataTableColumn<T>[];
  rows: T[];
  rowKey: (row: T) => Key;
  loading?: boolean;
  /** A message shown in place of the rows when loading failed. */
  error?: string | null;
  emptyText?: string;
  /** Row selection with checkboxes; controlled when `selected` is given. */
  selectable?: boolean;
  selected?: Key[];
  onSelectedChange?: (keys: Key[]) => void;
  /** Without it the table pages through `rows` itself. */
  pagination?: ServerPagination;
  defaultPageSize?: number;
  /** Extra controls in the toolbar (right of the search). */
  toolbar?: ReactNode;
}

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
function filterAndSort<T>(
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

/**
 * A table with an optional title, search with a search-by selector, sortable columns, row selection,
 * loading and empty states and pagination (spec point 2). With `pagination` it is controlled by the
 * caller and pages through a server list; search and sort then apply to the loaded page.
 */
export function DataTable<T>({
  title,
  columns,
  rows,
  rowKey,
  loading = false,
  error = null,
  emptyText,
  selectable = false,
  selected,
  onSelectedChange,
  pagination,
  defaultPageSize = DEFAULT_PAGE_SIZE,
  toolbar,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  // On a phone the rows become cards, so no column (actions included) hides off-screen; read at the first
  // render so a phone never flashes the table.
  const cards = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
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

  const pageKeys = pageRows.map(rowKey);
  const allOnPage = pageKeys.length > 0 && pageKeys.every((k) => chosen.includes(k));
  const someOnPage = pageKeys.some((k) => chosen.includes(k));
  const toggleAll = () =>
    setChosen(allOnPage ? chosen.filter((k) => !pageKeys.includes(k)) : [...new Set([...chosen, ...pageKeys])]);
  const toggleRow = (k: Key) => setChosen(chosen.includes(k) ? chosen.filter((x) => x !== k) : [...chosen, k]);

  const span = columns.length + (selectable ? 1 : 0);
  const sortIcon = (key: string) => {
    if (sort?.key !== key) return <IconSelector size={14} aria-hidden />;
    return sort.direction === 'desc' ? (
      <IconChevronDown size={14} aria-hidden />
    ) : (
      <IconChevronUp size={14} aria-hidden />
    );
  };

  let body: ReactNode;
  if (cards) {
    body = (
      <CardRows
        rows={pageRows}
        columns={columns}
        rowKey={rowKey}
        loading={loading}
        error={error}
        emptyText={emptyText ?? t('dataTable.noResults')}
        selectable={selectable}
        chosen={chosen}
        onToggle={toggleRow}
      />
    );
  } else if (loading && pageRows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={span}>
          <Center py="md" role="status" aria-live="polite">
            <Loader size="sm" mr="xs" />
            <Text size="sm">{t('dataTable.loading')}</Text>
          </Center>
        </Table.Td>
      </Table.Tr>
    );
  } else if (error) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={span}>
          <Text c="red" ta="center" py="md" role="alert">
            {error}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else if (pageRows.length === 0) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={span}>
          <Text c="dimmed" ta="center" py="md">
            {emptyText ?? t('dataTable.noResults')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = pageRows.map((row) => {
      const k = rowKey(row);
      const isSelected = chosen.includes(k);
      return (
        <Table.Tr key={k} bg={isSelected ? 'var(--mantine-color-green-light)' : undefined}>
          {selectable && (
            <Table.Td w={40}>
              <Checkbox aria-label={t('dataTable.selectRow')} checked={isSelected} onChange={() => toggleRow(k)} />
            </Table.Td>
          )}
          {columns.map((c) => (
            <Table.Td key={c.key}>{c.render ? c.render(row) : String(c.value?.(row) ?? '')}</Table.Td>
          ))}
        </Table.Tr>
      );
    });
  }

  return (
    <Paper withBorder p="md" radius="md">
      {(title || searchColumns.length > 0 || toolbar) && (
        <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
          {title ? (
            <Title order={4} component="h2">
              {title}
            </Title>
          ) : (
            <span />
          )}
          <Group gap="xs" wrap="wrap">
            {searchColumns.length > 0 && (
              <>
                <NativeSelect
                  aria-label={t('dataTable.searchBy')}
                  value={searchBy}
                  onChange={(e) => setSearchBy(e.currentTarget.value)}
                  data={[
                    { value: '', label: t('dataTable.allColumns') },
                    ...searchColumns.map((c) => ({ value: c.key, label: c.header })),
                  ]}
                />
                <TextInput
                  aria-label={t('dataTable.search')}
                  placeholder={t('dataTable.search')}
                  leftSection={<IconSearch size={16} />}
                  value={query}
                  onChange={(e) => {
                    setQuery(e.currentTarget.value);
                    if (!serverMode) setOwnPage(1);
                  }}
                />
              </>
            )}
            {toolbar}
          </Group>
        </Group>
      )}
      {selectable && chosen.length > 0 && (
        <Text size="sm" mb="xs">
          {t('dataTable.selected', { count: chosen.length })}
        </Text>
      )}
      {cards && (
        <CardControls
          columns={columns}
          sort={sort}
          onSort={setSort}
          selectable={selectable}
          allOnPage={allOnPage}
          someOnPage={someOnPage}
          onToggleAll={toggleAll}
          nothingToSelect={pageKeys.length === 0}
        />
      )}
      <Box pos="relative">
        <LoadingOverlay visible={loading && pageRows.length > 0} zIndex={1} overlayProps={{ blur: 1 }} />
        {cards ? (
          body
        ) : (
          <ScrollArea viewportProps={{ tabIndex: 0 }}>
            <Table striped highlightOnHover verticalSpacing="sm" aria-busy={loading}>
              <Table.Thead>
                <Table.Tr>
                  {selectable && (
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label={t('dataTable.selectAll')}
                        checked={allOnPage}
                        indeterminate={someOnPage && !allOnPage}
                        onChange={toggleAll}
                        disabled={pageKeys.length === 0}
                      />
                    </Table.Th>
                  )}
                  {columns.map((c) => {
                    const canSort = c.sortable && Boolean(c.value);
                    const ariaSort =
                      sort?.key === c.key ? (sort.direction === 'desc' ? 'descending' : 'ascending') : 'none';
                    return (
                      <Table.Th key={c.key} aria-sort={canSort ? ariaSort : undefined}>
                        {canSort ? (
                          <UnstyledButton
                            onClick={() => setSort(nextSort(sort, c.key))}
                            aria-label={t('dataTable.sortBy', { column: c.header })}
                          >
                            <Group gap={4} wrap="nowrap">
                              <Text fw={600} size="sm">
                                {c.header}
                              </Text>
                              {sortIcon(c.key)}
                            </Group>
                          </UnstyledButton>
                        ) : (
                          c.header
                        )}
                      </Table.Th>
                    );
                  })}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>{body}</Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Box>
      <ListPagination page={current} pageSize={effectiveSize} count={total} onChange={goTo} onOnePage="all">
        <NativeSelect
          label={t('dataTable.rowsPerPage')}
          size="xs"
          styles={{ root: { display: 'flex', alignItems: 'center', gap: 8 } }}
          value={String(pageSize)}
          onChange={(e) => changeSize(Number(e.currentTarget.value))}
          data={PAGE_SIZE_OPTIONS.map((n) => ({
            value: String(n),
            label: n === ALL_ROWS ? t('dataTable.all') : String(n),
          }))}
        />
      </ListPagination>
    </Paper>
  );
}

interface CardRowsProps<T> {
  rows: T[];
  columns: DataTableColumn<T>[];
  rowKey: (row: T) => Key;
  loading: boolean;
  error: string | null;
  emptyText: string;
  selectable: boolean;
  chosen: Key[];
  onToggle: (key: Key) => void;
}

/** The phone layout: one card a row, each cell under its column's name; the actions last, full width. */
function CardRows<T>({
  rows,
  columns,
  rowKey,
  loading,
  error,
  emptyText,
  selectable,
  chosen,
  onToggle,
}: CardRowsProps<T>) {
  const { t } = useTranslation();
  if (loading && rows.length === 0)
    return (
      <Center py="md" role="status" aria-live="polite">
        <Loader size="sm" mr="xs" />
        <Text size="sm">{t('dataTable.loading')}</Text>
      </Center>
    );
  if (error)
    return (
      <Text c="red" ta="center" py="md" role="alert">
        {error}
      </Text>
    );
  if (rows.length === 0)
    return (
      <Text c="dimmed" ta="center" py="md">
        {emptyText}
      </Text>
    );
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-busy={loading}>
      {rows.map((row) => {
        const k = rowKey(row);
        const isSelected = chosen.includes(k);
        return (
          <Paper
            key={k}
            component="li"
            withBorder
            p="sm"
            bg={isSelected ? 'var(--mantine-color-green-light)' : undefined}
            data-testid="data-card"
          >
            <Stack gap={6}>
              {selectable && (
                <Checkbox label={t('dataTable.selectRow')} checked={isSelected} onChange={() => onToggle(k)} />
              )}
              {columns.map((c) => (
                <Box key={c.key} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  {c.header && (
                    <Text size="xs" c="dimmed" fw={600}>
                      {c.header}
                    </Text>
                  )}
                  <Box fz="sm">{c.render ? c.render(row) : String(c.value?.(row) ?? '')}</Box>
                </Box>
              ))}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

interface CardControlsProps<T> {
  columns: DataTableColumn<T>[];
  sort: SortState | null;
  onSort: (sort: SortState | null) => void;
  selectable: boolean;
  allOnPage: boolean;
  someOnPage: boolean;
  onToggleAll: () => void;
  nothingToSelect: boolean;
}

/** Cards have no column headings to click: sorting is a select, "select all" a checkbox above them. */
function CardControls<T>({
  columns,
  sort,
  onSort,
  selectable,
  allOnPage,
  someOnPage,
  onToggleAll,
  nothingToSelect,
}: CardControlsProps<T>) {
  const { t } = useTranslation();
  const sortable = columns.filter((c) => c.sortable && c.value);
  if (sortable.length === 0 && !selectable) return null;
  return (
    <Group gap="sm" mb="sm" wrap="wrap">
      {sortable.length > 0 && (
        <NativeSelect
          aria-label={t('dataTable.sortCards')}
          value={sort ? `${sort.key}:${sort.direction}` : ''}
          onChange={(e) => {
            const [key, direction] = e.currentTarget.value.split(':');
            onSort(key ? { key, direction: direction as SortDirection } : null);
          }}
          data={[
            { value: '', label: t('dataTable.unsorted') },
            ...sortable.flatMap((c) => [
              { value: `${c.key}:desc`, label: t('dataTable.sortDesc', { column: c.header }) },
              { value: `${c.key}:asc`, label: t('dataTable.sortAsc', { column: c.header }) },
            ]),
          ]}
        />
      )}
      {selectable && (
        <Checkbox
          label={t('dataTable.selectAll')}
          checked={allOnPage}
          indeterminate={someOnPage && !allOnPage}
          onChange={onToggleAll}
          disabled={nothingToSelect}
        />
      )}
    </Group>
  );
}
