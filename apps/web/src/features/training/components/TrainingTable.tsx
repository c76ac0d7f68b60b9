import type { ReactNode } from 'react';
import { Box, Table } from '@mantine/core';
import { type ListQuery, ListState } from '../../../components/ListState.tsx';

/**
 * A striped table of the training page in its scroll container: the column headings, then the rows
 * given as children. Its query's loading and error (with a retry) show as every list's (ListState); a
 * failed refetch keeps the rows (the jobs poll while one runs), and `emptyText` stands in for a table
 * with no rows. On a phone the table
 * scrolls sideways inside its own frame (never the page), and the frame takes keyboard focus so the
 * columns past the edge can be reached without a mouse (decision 0018).
 */
export function TrainingTable({
  label,
  minWidth,
  columns,
  query,
  emptyText,
  children,
}: {
  label: string;
  minWidth: number;
  /** One heading a column; null for a column without one. */
  columns: ReactNode[];
  query: ListQuery & { data?: { count: number } };
  emptyText?: string;
  children: ReactNode;
}) {
  return (
    <ListState
      query={query}
      keepOnError
      empty={emptyText !== undefined && query.data?.count === 0}
      emptyText={emptyText}
    >
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
    </ListState>
  );
}
