import { Pagination, type PaginationProps } from '@mantine/core';

/**
 * Mantine's page buttons, in a chunk of their own: components/ListPagination.tsx loads them just after
 * the list, as they show only once a list has a second page (decision 0121).
 */
export default function Pager(props: PaginationProps) {
  return <Pagination {...props} />;
}
