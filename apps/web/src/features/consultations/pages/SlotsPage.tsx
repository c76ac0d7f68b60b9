import { lazy, useState } from 'react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { AvailabilitySlot, ExpertSlot, ExpertSlots, MeetingMode } from '@kutu/contract';
import { IconHome, IconPhone, IconVideo } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routes } from '../../../config/routes.ts';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { formatDay, formatTime, viewerTimeZone, zoneName } from '../../../lib/format.ts';
import { useSlotsByExpert } from '../../../api/consultations.ts';
import { useClampPage } from '../components/shared.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { ListPagination } from '../../../components/ListPagination.tsx';

const BookDialog = lazy(() => import('../components/BookDialog.tsx').then((m) => ({ default: m.BookDialog })));

/** Experts per page; each brings all their bookable times. */
const PAGE_SIZE = 5;
/** Days shown before "Show all days": enough to choose from without a long scroll on a phone. */
const FIRST_DAYS = 3;

const modeIcons: Record<MeetingMode, typeof IconPhone> = { phone: IconPhone, video: IconVideo, farm_visit: IconHome };

/** The slots by day in the viewer's zone, in order. */
function byDay(slots: ExpertSlot[]): { day: string; slots: ExpertSlot[] }[] {
  const days = new Map<string, ExpertSlot[]>();
  for (const slot of slots) {
    const day = formatDay(slot.start_time);
    days.set(day, [...(days.get(day) ?? []), slot]);
  }
  return [...days].map(([day, list]) => ({ day, slots: list }));
}

function TimeChip({ slot, onBook }: { slot: ExpertSlot; onBook: () => void }) {
  const { t } = useTranslation();
  const Icon = modeIcons[slot.mode];
  const from = formatTime(slot.start_time);
  const until = formatTime(slot.end_time);
  return (
    <Button
      variant="light"
      radius="xl"
      size="compact-md"
      onClick={onBook}
      leftSection={<Icon size={14} aria-hidden />}
      aria-label={t('consultations.slots.bookAt', { from, until, mode: t(`consultations.mode.${slot.mode}`) })}
      title={`${from}–${until} · ${t(`consultations.mode.${slot.mode}`)}`}
    >
      {from}
    </Button>
  );
}

/** One expert: who they are once, then their times by day as chips; a chip books that time. */
function ExpertCard({ group, onBook }: { group: ExpertSlots; onBook: (slot: AvailabilitySlot) => void }) {
  const { t } = useTranslation();
  const { expert } = group;
  const [allDays, setAllDays] = useState(false);
  const days = byDay(group.slots);
  const shown = allDays ? days : days.slice(0, FIRST_DAYS);
  const zone = group.slots[0] ? zoneName(new Date(group.slots[0].start_time), viewerTimeZone()) : '';
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={expert.user.username}>
      <Group justify="space-between" mb={4} wrap="nowrap">
        <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {expert.user.username}
        </Title>
        <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
          {t('consultations.slots.times', { count: group.slots.length })}
        </Text>
      </Group>
      <Text size="sm" c="dimmed" lineClamp={3} title={expert.bio || undefined}>
        {expert.bio || t('consultations.slots.noBio')}
      </Text>
      <Text size="sm" mt={4}>
        <b>{t('consultations.slots.expertise')}:</b> {expert.areas_of_expertise || '—'}
      </Text>
      <Text size="sm">
        <b>{t('consultations.slots.certifications')}:</b> {expert.certifications || '—'}
      </Text>
      <Text size="sm">
        <b>{t('consultations.mode.label')}:</b>{' '}
        {[...new Set(group.slots.map((s) => s.mode))].map((m) => t(`consultations.mode.${m}`)).join(', ')}
      </Text>
      <Stack gap="xs" mt="sm">
        {shown.map(({ day, slots }) => (
          <div key={day}>
            <Title order={3} size="h6" mb={4}>
              {day} · {zone}
            </Title>
            <Group gap={6}>
              {slots.map((slot) => (
                <TimeChip key={slot.id} slot={slot} onBook={() => onBook({ ...slot, expert })} />
              ))}
            </Group>
          </div>
        ))}
      </Stack>
      {days.length > FIRST_DAYS && (
        <Button variant="subtle" size="compact-sm" mt="xs" onClick={() => setAllDays((v) => !v)}>
          {allDays ? t('consultations.slots.fewerDays') : t('consultations.slots.allDays', { count: days.length })}
        </Button>
      )}
    </Card>
  );
}

/**
 * Slots (farmer): experts' open times, grouped by expert and by day, booked with one tap on a time and
 * approved by the expert. Pages count experts (GET availability-slots/by-expert/).
 */
export default function SlotsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const groups = useSlotsByExpert({ page, page_size: PAGE_SIZE });
  const [booking, setBooking] = useState<AvailabilitySlot | null>(null);
  const results = groups.data?.results ?? [];
  useClampPage(page, setPage, groups.data?.count, PAGE_SIZE);

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
      <Text size="sm" c="dimmed">
        {t('consultations.slots.chooseTime')}
      </Text>
      <ListState query={groups} empty={results.length === 0} emptyText={t('consultations.slots.empty')}>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {results.map((group) => (
            <ExpertCard key={group.expert.user.username} group={group} onBook={setBooking} />
          ))}
        </SimpleGrid>
        <ListPagination
          page={page}
          pageSize={PAGE_SIZE}
          count={groups.data?.count ?? 0}
          onChange={setPage}
          label={(range) => t('consultations.slots.expertRange', range)}
          onOnePage="range"
        />
      </ListState>
      <OnDemand when={booking !== null}>
        <BookDialog slot={booking} onClose={() => setBooking(null)} />
      </OnDemand>
    </Stack>
  );
}

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/consultations-strings.ts';
