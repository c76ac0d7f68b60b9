import { Checkbox, Group, ScrollArea, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { RowsPlaceholder } from './RowsPlaceholder.tsx';
import { nextSort } from './sortAndSearch.ts';
import { cellOf, type RowsProps, type SortState } from './types.ts';
import type { TableSelection } from './useTableState.ts';

interface TableViewProps<T> extends RowsProps<T> {
  selection: TableSelection;
  sort: SortState | null;
  onSort: (sort: SortState | null) => void;
}

function SortIcon({ sort, column }: { sort: SortState | null; column: string }) {
  if (sort?.key !== column) return <IconSelector size={14} aria-hidden />;
  return sort.direction === 'desc' ? (
    <IconChevronDown size={14} aria-hidden />
  ) : (
    <IconChevronUp size={14} aria-hidden />
  );
}

/** The wide-screen layout: a table with clickable column headings to sort and checkboxes to select. */
export function TableView<T>({
  rows,
  columns,
  rowKey,
  loading,
  error,
  emptyText,
  selectable,
  selection,
  sort,
  onSort,
}: TableViewProps<T>) {
  const { t } = useTranslation();
  const { chosen, allOnPage, someOnPage, nothingToSelect, toggleAll, toggleRow } = selection;
  const span = columns.length + (selectable ? 1 : 0);

  const body =
    error || rows.length === 0 ? (
      <Table.Tr>
        <Table.Td colSpan={span}>
          <RowsPlaceholder loading={loading} error={error} emptyText={emptyText} count={rows.length} />
        </Table.Td>
      </Table.Tr>
    ) : (
      rows.map((row) => {
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
              <Table.Td key={c.key}>{cellOf(c, row)}</Table.Td>
            ))}
          </Table.Tr>
        );
      })
    );

  return (
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
                  disabled={nothingToSelect}
                />
              </Table.Th>
            )}
            {columns.map((c) => {
              const canSort = c.sortable && Boolean(c.value);
              const ariaSort = sort?.key === c.key ? (sort.direction === 'desc' ? 'descending' : 'ascending') : 'none';
              return (
                <Table.Th key={c.key} aria-sort={canSort ? ariaSort : undefined}>
                  {canSort ? (
                    <UnstyledButton
                      onClick={() => onSort(nextSort(sort, c.key))}
                      aria-label={t('dataTable.sortBy', { column: c.header })}
                    >
                      <Group gap={4} wrap="nowrap">
                        <Text fw={600} size="sm">
                          {c.header}
                        </Text>
                        <SortIcon sort={sort} column={c.key} />
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
  );
}
