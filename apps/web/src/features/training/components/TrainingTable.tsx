import type { ReactNode } from 'react';
import { Table, Text } from '@mantine/core';

/**
 * A striped table of the training page in its scroll container: the column headings, then the rows
 * given as children. With `emptyText` the text stands in place of the table.
 */
export function TrainingTable({
  label,
  minWidth,
  columns,
  emptyText,
  children,
}: {
  label: string;
  minWidth: number;
  /** One heading a column; null for a column without one. */
  columns: ReactNode[];
  emptyText?: string;
  children: ReactNode;
}) {
  if (emptyText !== undefined) return <Text c="dimmed">{emptyText}</Text>;
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
              <Table.Th key={i}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
