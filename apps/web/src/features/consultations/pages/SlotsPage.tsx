import { lazy, useState } from 'react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AvailabilitySlot } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routes } from '../../../config/routes.ts';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useBookableSlots } from '../../../api/consultations.ts';
import { CardPager, ListState, SlotBadge, slotState, useClampPage } from '../components/shared.tsx';

const BookDialog = lazy(() => import('../components/BookDialog.tsx').then((m) => ({ default: m.BookDialog })));

const PAGE_SIZE = 12;

function SlotCard({ slot, onBook }: { slot: AvailabilitySlot; onBook: () => void }) {
  const { t } = useTranslation();
  const { expert } = slot;
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={expert.user.username}>
      <Group justify="space-between" mb="xs">
        <Text fw={700}>{expert.user.username}</Text>
        <SlotBadge slot={slot} />
      </Group>
      <Text size="sm" c="dimmed" lineClamp={2} title={expert.bio || undefined}>
        {expert.bio || t('consultations.slots.noBio')}
      </Text>
      <Stack gap={4} mt="sm">
        <Text size="sm">
          <b>{t('consultations.slots.expertise')}:</b> {expert.areas_of_expertise || '—'}
        </Text>
        <Text size="sm">
          <b>{t('consultations.slots.certifications')}:</b> {expert.certifications || '—'}
        </Text>
        <Text size="sm" fw={600} mt="xs">
          {t('consultations.slots.period')}
        </Text>
        <Text size="sm">
          {t('consultations.start')}: {formatDateTime(slot.start_time)}
        </Text>
        <Text size="sm">
          {t('consultations.end')}: {formatDateTime(slot.end_time)}
        </Text>
        <Text size="sm">
          <b>{t('consultations.mode.label')}:</b> {t(`consultations.mode.${slot.mode}`)}
        </Text>
      </Stack>
      {slotState(slot) === 'available' && (
        <Button mt="md" fullWidth onClick={onBook}>
          {t('consultations.slots.book')}
        </Button>
      )}
    </Card>
  );
}

/** Slots (farmer): experts' open times, booked with one click and approved by the expert. */
export default function SlotsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const slots = useBookableSlots({ page, page_size: PAGE_SIZE });
  const [booking, setBooking] = useState<AvailabilitySlot | null>(null);
  const results = slots.data?.results ?? [];
  useClampPage(page, setPage, slots.data?.count, PAGE_SIZE);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('consultations.slots.title')}
        </Title>
        <Anchor component={Link} to={routes.myBookings}>
          {t('consultations.slots.myBookingsLink')}
        </Anchor>
      </Group>
      <ListState
        isPending={slots.isPending}
        error={slots.error}
        isEmpty={results.length === 0}
        emptyText={t('consultations.slots.empty')}
        onRetry={() => void slots.refetch()}
      >
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {results.map((slot) => (
            <SlotCard key={slot.id} slot={slot} onBook={() => setBooking(slot)} />
          ))}
        </SimpleGrid>
        <CardPager page={page} pageSize={PAGE_SIZE} total={slots.data?.count ?? 0} onChange={setPage} />
      </ListState>
      <OnDemand when={booking !== null}>
        <BookDialog slot={booking} onClose={() => setBooking(null)} />
      </OnDemand>
    </Stack>
  );
}
