import type { ReactNode } from 'react';
import { Box, Table, Text } from '@mantine/core';

/**
 * A striped table of the training page in its scroll container: the column headings, then the rows
 * given as children. With `emptyText` the text stands in place of the table. On a phone the table
 * scrolls sideways inside its own frame (never the page), and the frame takes keyboard focus so the
 * columns past the edge can be reached without a mouse (decision 0018).
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
    <Box role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto', maxWidth: '100%' }}>
      <Table striped miw={minWidth} aria-label={label}>
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
    </Box>
  );
}
