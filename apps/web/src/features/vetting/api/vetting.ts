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
    // Approval names the state the administrator saw, so an approval racing a refusal fails (409).
    mutationFn: ({ id, reason, from }: { id: number; reason?: string; from?: VettingStatus }) =>
      reason === undefined
        ? http.post<ExpertApplication>(vettingApi.approvePath(id), { from: from === 'refused' ? 'refused' : 'pending' })
        : http.post<ExpertApplication>(vettingApi.refusePath(id), { reason }),
    onSettled: () => void client.invalidateQueries({ queryKey: vettingKey }),
  });
}
