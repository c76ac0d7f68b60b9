import { memo, useDeferredValue } from 'react';
import { Alert, Button, Grid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/use-session.ts';
import { errorMessage } from '../../../lib/api.ts';
import type { DashboardReply, Role } from '@kutu/contract';
import { dashboardQuery, useDashboard } from '../../../api/dashboard.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { MonthlyChart, OutcomesChart } from '../components/Charts.tsx';
import { NotificationsCard } from '../components/NotificationsCard.tsx';
import { QuickLinks } from '../components/QuickLinks.tsx';
import { StatCards } from '../components/StatCards.tsx';
import { FarmerActivity } from '../components/FarmerActivity.tsx';
import { ReviewSummaryCard } from '../../../components/review/ReviewSummaryCard.tsx';

/** Started with the page's code (router.tsx). */
export function startQueries() {
  void queryClient.prefetchQuery(dashboardQuery());
}

export default function DashboardPage() {
  const { role } = useSession();
  const dashboard = useDashboard();
  // The figures render in the background once they arrive, in slices React can pause, not in the
  // query's own urgent re-render: on a slow phone that was one long task (issue 13). The body below is
  // memoised, so the urgent re-render stops here.
  const data = useDeferredValue(dashboard.data);
  const isPending = useDeferredValue(dashboard.isPending);
  const error = useDeferredValue(dashboard.error);
  return (
    <DashboardBody
      role={role ?? data?.role ?? null}
      data={data}
      isPending={isPending}
      error={error}
      refetch={dashboard.refetch}
    />
  );
}

interface BodyProps {
  role: Role | null;
  data: DashboardReply | undefined;
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
}

const DashboardBody = memo(function DashboardBody({ role, data, isPending, error, refetch }: BodyProps) {
  const { t } = useTranslation();
  const o = data?.outcomes;
  // Charts say nothing before the first analysis: they appear once there is data.
  const hasData = !o || o.common_rust + o.healthy + o.other_disease + o.unclear > 0;
  const chartState = { isPending, error, onRetry: () => void refetch() };
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t(`dashboard.title.${role ?? 'any'}`)}
      </Title>
      {error ? (
        <Alert color="red" title={t('dashboard.failed')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(error)}</Text>
            <Button size="xs" variant="light" onClick={() => void refetch()}>
              {t('dashboard.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : role === 'farmer' ? (
        <FarmerActivity activity={data?.farmer} />
      ) : (
        <StatCards stats={data?.stats} />
      )}
      {role && <QuickLinks role={role} />}
      <ReviewSummaryCard expert={role === 'expert'} />
      {/* Above the charts, which come and go with the data, so they shift nothing when they do. */}
      <NotificationsCard />
      {hasData && (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <OutcomesChart outcomes={data?.outcomes} {...chartState} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <MonthlyChart monthly={data?.monthly} {...chartState} />
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
});
