import { Box, Checkbox, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RowsPlaceholder } from './RowsPlaceholder.tsx';
import { cellOf, type DataTableColumn, type RowsProps, type SortDirection, type SortState } from './types.ts';
import type { TableSelection } from './useTableState.ts';

interface PhoneCardsProps<T> extends RowsProps<T> {
  selection: TableSelection;
}

/** The phone layout: one card a row, each cell under its column's name; the actions last, full width. */
export function PhoneCards<T>({
  rows,
  columns,
  rowKey,
  loading,
  error,
  emptyText,
  selectable,
  selection,
}: PhoneCardsProps<T>) {
  const { t } = useTranslation();
  const { chosen, toggleRow } = selection;
  if (error || rows.length === 0)
    return <RowsPlaceholder loading={loading} error={error} emptyText={emptyText} count={rows.length} />;
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
                <Checkbox label={t('dataTable.selectRow')} checked={isSelected} onChange={() => toggleRow(k)} />
              )}
              {columns.map((c) => (
                <Box key={c.key} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  {c.header && (
                    <Text size="xs" c="dimmed" fw={600}>
                      {c.header}
                    </Text>
                  )}
                  <Box fz="sm">{cellOf(c, row)}</Box>
                </Box>
              ))}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}

interface PhoneCardControlsProps<T> {
  columns: DataTableColumn<T>[];
  sort: SortState | null;
  onSort: (sort: SortState | null) => void;
  selectable: boolean;
  selection: TableSelection;
}

/** Cards have no column headings to click: sorting is a select, "select all" a checkbox above them. */
export function PhoneCardControls<T>({ columns, sort, onSort, selectable, selection }: PhoneCardControlsProps<T>) {
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
          checked={selection.allOnPage}
          indeterminate={selection.someOnPage && !selection.allOnPage}
          onChange={selection.toggleAll}
          disabled={selection.nothingToSelect}
        />
      )}
    </Group>
  );
}
