import { Alert, Button, Grid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/guards.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useDashboard } from '../api/dashboard.ts';
import { MonthlyChart, OutcomesChart } from '../components/Charts.tsx';
import { NotificationsCard } from '../components/NotificationsCard.tsx';
import { QuickLinks } from '../components/QuickLinks.tsx';
import { StatCards } from '../components/StatCards.tsx';
import { FarmerActivity } from '../components/FarmerActivity.tsx';
import { ReviewSummaryCard } from '../../review/components/ReviewSummaryCard.tsx';

export default function DashboardPage() {
  const { t } = useTranslation();
  const { role: sessionRole } = useSession();
  const dashboard = useDashboard();
  const role = sessionRole ?? dashboard.data?.role ?? null;
  const o = dashboard.data?.outcomes;
  // Charts say nothing before the first analysis: they appear once there is data.
  const hasData = !o || o.common_rust + o.healthy + o.other_disease + o.unclear > 0;
  const chartState = {
    isPending: dashboard.isPending,
    error: dashboard.error,
    onRetry: () => void dashboard.refetch(),
  };
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t(`dashboard.title.${role ?? 'any'}`)}
      </Title>
      {dashboard.isError ? (
        <Alert color="red" title={t('dashboard.failed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(dashboard.error)}</Text>
            <Button size="xs" variant="light" onClick={() => void dashboard.refetch()}>
              {t('dashboard.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : role === 'farmer' ? (
        <FarmerActivity activity={dashboard.data?.farmer} />
      ) : (
        <StatCards stats={dashboard.data?.stats} />
      )}
      {role && <QuickLinks role={role} />}
      <ReviewSummaryCard expert={role === 'expert'} />
      {/* Above the charts, which come and go with the data, so they shift nothing when they do. */}
      <NotificationsCard />
      {hasData && (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <OutcomesChart outcomes={dashboard.data?.outcomes} {...chartState} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <MonthlyChart monthly={dashboard.data?.monthly} {...chartState} />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
