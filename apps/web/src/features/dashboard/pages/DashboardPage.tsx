import { lazy, memo, Suspense, useDeferredValue } from 'react';
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useSession } from '../../../lib/use-session.ts';
import { routes } from '../../../config/routes.ts';
import { session } from '../../../lib/session.ts';
import { ListState } from '../../../components/ListState.tsx';
import type { DashboardReply, Role } from '@kutu/contract';
import { dashboardQuery, useDashboard } from '../../../api/dashboard.ts';
import { notificationsQuery } from '../../../api/notifications.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { QuickLinks } from '../components/QuickLinks.tsx';
import { StatCards } from '../components/StatCards.tsx';
import { FarmerActivity } from '../components/FarmerActivity.tsx';
import { ReviewSummaryCard } from '../../../components/review/ReviewSummaryCard.tsx';

const loadLower = () => import('../components/DashboardLower.tsx');
const DashboardLower = lazy(loadLower);

/** Started with the page's code (router.tsx): the data, and the lower part (notifications, charts) that shows it. */
export function startQueries() {
  if (session.user()?.role === 'admin' || session.user()?.role === 'officer') return;
  void loadLower();
  void queryClient.prefetchQuery(dashboardQuery());
  void queryClient.prefetchInfiniteQuery(notificationsQuery());
}

export default function DashboardPage() {
  const { role } = useSession();
  // An administrator has no figures: their start page is the expert applications (docs/decisions/0027).
  if (role === 'admin') return <Navigate to={routes.admin} replace />;
  // An extension officer's start page is their districts' week.
  if (role === 'officer') return <Navigate to={routes.extensionWeek} replace />;
  return <FarmerOrExpertDashboard role={role} />;
}

function FarmerOrExpertDashboard({ role }: { role: Role | null }) {
  const dashboard = useDashboard();
  // The figures render in the background once they arrive, in slices React can pause, not in the
  // query's own urgent re-render: on a slow phone that was one long task (decision 0016). The body below is
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
  // Charts say nothing before the first analysis: they appear once there is data. A failed first load is
  // said once, above, with its retry: the charts come from the same reply.
  const hasData = o ? o.common_rust + o.healthy + o.other_disease + o.unclear > 0 : !error;
  // The figures draw their own placeholders while loading, so they keep their place.
  const figures = role === 'farmer' ? <FarmerActivity activity={data?.farmer} /> : <StatCards stats={data?.stats} />;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t(`dashboard.title.${role ?? 'any'}`)}
      </Title>
      <ListState query={{ isPending, error, refetch }} loading={figures} errorTitle={t('dashboard.failed')}>
        {figures}
      </ListState>
      {role && <QuickLinks role={role} />}
      <ReviewSummaryCard expert={role === 'expert'} />
      <Suspense fallback={null}>
        <DashboardLower data={data} isPending={isPending} charts={hasData} />
      </Suspense>
    </Stack>
  );
});
