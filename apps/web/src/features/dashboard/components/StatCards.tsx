import { Card, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DashboardStats } from '@kutu/contract';
import { formatNumber } from '../../../lib/format.ts';
import { LoadingSkeleton } from '../../../components/LoadingSkeleton.tsx';

/** The ten statistics, in the spec's order. */
export const statKeys = [
  'imagesAnalyzedRust',
  'imagesAnalyzedHealthy',
  'imagesAnalyzedOtherDiseases',
  'totalImagesAnalyzed',
  'imagesTrainingRust',
  'imagesTrainingHealthy',
  'imagesTrainingOtherDiseases',
  'trainingSessions',
  'communityPostsRust',
  'bookingsConfirmed',
] as const satisfies readonly (keyof DashboardStats)[];

/** Ten cards; skeleton values while loading. */
export function StatCards({ stats }: { stats: DashboardStats | undefined }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" aria-label={t('dashboard.statsLabel')}>
      {statKeys.map((key) => (
        <Card key={key} withBorder padding="md" data-testid={`stat-${key}`}>
          <Text size="sm" c="dimmed">
            {t(`dashboard.stats.${key}`)}
          </Text>
          {stats ? (
            <Text fz={28} fw={700} data-testid="stat-value">
              {formatNumber(stats[key])}
            </Text>
          ) : (
            <LoadingSkeleton h={34} w={60} mt={4} />
          )}
        </Card>
      ))}
    </SimpleGrid>
  );
}
