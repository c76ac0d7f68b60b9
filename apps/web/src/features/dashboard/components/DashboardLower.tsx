import { Grid } from '@mantine/core';
import type { DashboardReply } from '@kutu/contract';
import { MonthlyChart, OutcomesChart } from './Charts.tsx';
import { NotificationsCard } from './NotificationsCard.tsx';

/**
 * The dashboard below its figures, links and review summary: the notifications, then the charts (which come
 * and go with the data, below the notifications, so they shift nothing when they do). Loaded with the page's
 * data rather than with the page (DashboardPage's `startQueries`); it is the page's end, so nothing moves
 * when it arrives.
 */
export default function DashboardLower({
  data,
  isPending,
  charts,
}: {
  data: DashboardReply | undefined;
  isPending: boolean;
  charts: boolean;
}) {
  return (
    <>
      <NotificationsCard />
      {charts && (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <OutcomesChart outcomes={data?.outcomes} isPending={isPending} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <MonthlyChart monthly={data?.monthly} isPending={isPending} />
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
