import { Card, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { DashboardReply } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { formatNumber } from '../../../lib/format.ts';
import { LoadingSkeleton } from '../../../components/LoadingSkeleton.tsx';

type Activity = NonNullable<DashboardReply['farmer']>;

/** A farmer's own work in four cards, each opening its screen. */
export function FarmerActivity({ activity }: { activity: Activity | null | undefined }) {
  const { t } = useTranslation();
  const cards = [
    { key: 'analyses', to: routes.analysisHistory, value: activity?.analyses, detail: null },
    {
      key: 'questions',
      to: routes.analysisHistory,
      value: activity?.questions_answered,
      detail: activity ? t('dashboard.mine.ofAsked', { count: activity.questions_asked }) : null,
    },
    {
      key: 'bookings',
      to: routes.myBookings,
      value: activity?.bookings_approved,
      detail: activity ? t('dashboard.mine.bookingsPending', { count: activity.bookings_pending }) : null,
    },
    {
      key: 'posts',
      to: routes.communityPosts,
      value: activity?.posts,
      detail: activity ? t('dashboard.mine.answered', { count: activity.posts_answered }) : null,
    },
  ] as const;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" aria-label={t('dashboard.mine.label')}>
      {cards.map((c) => (
        <UnstyledButton key={c.key} component={Link} to={c.to} data-testid={`mine-${c.key}`}>
          <Card withBorder padding="md" h="100%">
            <Text size="sm" c="dimmed">
              {t(`dashboard.mine.${c.key}`)}
            </Text>
            {c.value === undefined ? (
              <LoadingSkeleton h={34} w={60} mt={4} />
            ) : (
              <Text fz={28} fw={700} data-testid="mine-value">
                {formatNumber(c.value)}
              </Text>
            )}
            {c.detail && (
              <Text size="xs" c="dimmed">
                {c.detail}
              </Text>
            )}
          </Card>
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}
