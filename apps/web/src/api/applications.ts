import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Application, ApplicationPage, ApprovalRole, VettingStatus } from '@kutu/contract';
import { vettingApi } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';

/** Who applies: a role that needs approval (the contract's `approvalRoles`, docs/decisions/0093). */
export type ApplicantKind = ApprovalRole;
export type { Application };

const vettingKey = (kind: ApplicantKind) => [`${kind}-applications`] as const;

/** A page of applications, pending first. */
export const useApplications = (kind: ApplicantKind, page: number, pageSize: number, status: VettingStatus | null) =>
  useQuery({
    queryKey: [...vettingKey(kind), page, pageSize, status],
    queryFn: ({ signal }) =>
      http.get<ApplicationPage>(
        vettingApi.of(kind).applications,
        { page, page_size: pageSize, ...(status && { status }) },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

export function useDecide(kind: ApplicantKind) {
  const client = useQueryClient();
  const paths = vettingApi.of(kind);
  return useMutation({
    // Approval names the state the administrator saw, so an approval racing a refusal fails (409).
    // An approval is withdrawn with a reason, as a refusal is given.
    mutationFn: ({ id, reason, from }: { id: number; reason?: string; from?: VettingStatus }) =>
      reason === undefined
        ? http.post<Application>(paths.approvePath(id), { from: from === 'refused' ? 'refused' : 'pending' })
        : from === 'approved'
          ? http.post<Application>(paths.withdrawPath(id), { reason })
          : http.post<Application>(paths.refusePath(id), { reason }),
    onSettled: () => void client.invalidateQueries({ queryKey: vettingKey(kind) }),
  });
}
