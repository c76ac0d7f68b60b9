import type { ReactNode } from 'react';
import { Box, Group, LoadingOverlay, NativeSelect, Paper, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { PHONE_QUERY } from '../../config/theme.ts';
import { ListPagination } from '../ListPagination.tsx';
import { useTranslation } from 'react-i18next';
import { PhoneCardControls, PhoneCards } from './PhoneCards.tsx';
import { TableView } from './TableView.tsx';
import {
  ALL_ROWS,
  DEFAULT_PAGE_SIZE,
  PAGE_SIZE_OPTIONS,
  type DataTableColumn,
  type Key,
  type ServerPagination,
} from './types.ts';
import { useTableState } from './useTableState.ts';

// The table's public face: callers import from this file only.
export { ALL_ROWS, DEFAULT_PAGE_SIZE, type DataTableColumn } from './types.ts';
export { nextSort } from './sortAndSearch.ts';

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

/**
 * A table with an optional title, search with a search-by selector, sortable columns, row selection,
 * loading and empty states and pagination (spec point 2). With `pagination` it is controlled by the
 * caller and pages through a server list; search and sort then apply to the loaded page. On a phone the
 * rows are cards (PhoneCards.tsx), elsewhere a table (TableView.tsx); the state is in useTableState.ts.
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
  const { search, sort, paging, selection } = useTableState({
    columns,
    rows,
    rowKey,
    selected,
    onSelectedChange,
    pagination,
    defaultPageSize,
  });
  const { searchColumns } = search;
  const { pageRows } = paging;
  const empty = emptyText ?? t('dataTable.noResults');
  const shown = { rows: pageRows, columns, rowKey, loading, error, emptyText: empty, selectable, selection };

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
                  value={search.searchBy}
                  onChange={(e) => search.setSearchBy(e.currentTarget.value)}
                  data={[
                    { value: '', label: t('dataTable.allColumns') },
                    ...searchColumns.map((c) => ({ value: c.key, label: c.header })),
                  ]}
                />
                <TextInput
                  aria-label={t('dataTable.search')}
                  placeholder={t('dataTable.search')}
                  leftSection={<IconSearch size={16} />}
                  value={search.query}
                  onChange={(e) => search.setQuery(e.currentTarget.value)}
                />
              </>
            )}
            {toolbar}
          </Group>
        </Group>
      )}
      {selectable && selection.chosen.length > 0 && (
        <Text size="sm" mb="xs">
          {t('dataTable.selected', { count: selection.chosen.length })}
        </Text>
      )}
      {cards && (
        <PhoneCardControls
          columns={columns}
          sort={sort.sort}
          onSort={sort.setSort}
          selectable={selectable}
          selection={selection}
        />
      )}
      <Box pos="relative">
        <LoadingOverlay visible={loading && pageRows.length > 0} zIndex={1} overlayProps={{ blur: 1 }} />
        {cards ? <PhoneCards {...shown} /> : <TableView {...shown} sort={sort.sort} onSort={sort.setSort} />}
      </Box>
      <ListPagination
        page={paging.current}
        pageSize={paging.effectiveSize}
        count={paging.total}
        onChange={paging.goTo}
        onOnePage="all"
      >
        <NativeSelect
          label={t('dataTable.rowsPerPage')}
          size="xs"
          styles={{ root: { display: 'flex', alignItems: 'center', gap: 8 } }}
          value={String(paging.pageSize)}
          onChange={(e) => paging.changeSize(Number(e.currentTarget.value))}
          data={PAGE_SIZE_OPTIONS.map((n) => ({
            value: String(n),
            label: n === ALL_ROWS ? t('dataTable.all') : String(n),
          }))}
        />
      </ListPagination>
    </Paper>
  );
}
