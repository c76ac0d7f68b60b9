import { Fragment, useState, type ReactNode } from 'react';
import { Group, SimpleGrid, Stack, Title } from '@mantine/core';
import type { Booking } from '@kutu/contract';
import type { useMyBookings } from '../../../api/consultations.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { type BookingFilter, BookingStatusFilter, useClampPage } from './shared.tsx';

const PAGE_SIZE = 12;

/**
 * The shell of the expert's and the farmer's booking lists: the title with the status filter, the
 * cards in a grid with the list's states and its pager, then `children` (dialogs, links).
 */
export function BookingList({
  title,
  emptyText,
  useBookings,
  card,
  children,
}: {
  title: string;
  emptyText: string;
  /** `useMyBookings` or `useExpertBookings` (a module constant, so the hooks keep their order). */
  useBookings: typeof useMyBookings;
  card: (booking: Booking) => ReactNode;
  children?: ReactNode;
}) {
  const [filter, setFilter] = useState<BookingFilter>('all');
  const [page, setPage] = useState(1);
  const bookings = useBookings({ page, page_size: PAGE_SIZE, status: filter === 'all' ? undefined : filter });
  useClampPage(page, setPage, bookings.data?.count, PAGE_SIZE);

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2">
          {title}
        </Title>
        <BookingStatusFilter
          value={filter}
          onChange={(v) => {
            setFilter(v);
            setPage(1);
          }}
        />
      </Group>
      <ListState query={bookings} empty={bookings.data?.results.length === 0} emptyText={emptyText}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {bookings.data?.results.map((b) => (
            <Fragment key={b.id}>{card(b)}</Fragment>
          ))}
        </SimpleGrid>
        <ListPagination
          page={page}
          pageSize={PAGE_SIZE}
          count={bookings.data?.count ?? 0}
          onChange={setPage}
          onOnePage="range"
        />
      </ListState>
      {children}
    </Stack>
  );
}
