import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardReply } from '@kutu/contract';
import { dashboardApi } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';
import { viewerTimeZone } from '../lib/format.ts';

export const dashboardQuery = (tz = viewerTimeZone()) =>
  queryOptions({
    queryKey: ['dashboard', tz],
    queryFn: ({ signal }) => http.get<DashboardReply>(dashboardApi.summary, { tz }, signal),
  });

/** The signed-in user's statistics; refreshed when a new notification arrives (see notifications api). */
export function useDashboard() {
  return useQuery(dashboardQuery());
}
