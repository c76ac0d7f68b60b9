import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ExpertApplication, ExpertApplicationPage, VettingStatus } from '@kutu/contract';
import { vettingApi } from '@kutu/contract/paths';
import { http } from '../../../lib/api.ts';

const vettingKey = ['expert-applications'] as const;

/** A page of expert applications, pending first (docs/decisions/0027). */
export const useApplications = (page: number, pageSize: number, status: VettingStatus | null) =>
  useQuery({
    queryKey: [...vettingKey, page, pageSize, status],
    queryFn: ({ signal }) =>
      http.get<ExpertApplicationPage>(
        vettingApi.applications,
        { page, page_size: pageSize, ...(status && { status }) },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

export function useDecide() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason?: string }) =>
      reason === undefined
        ? http.post<ExpertApplication>(vettingApi.approvePath(id))
        : http.post<ExpertApplication>(vettingApi.refusePath(id), { reason }),
    onSettled: () => void client.invalidateQueries({ queryKey: vettingKey }),
  });
}
