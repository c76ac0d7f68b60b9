import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApprovalRole,
  ExpertApplication,
  ExpertApplicationPage,
  OfficerApplication,
  OfficerApplicationPage,
  VettingStatus,
} from '@kutu/contract';
import { extensionApi, vettingApi } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';

/** Who applies: a role that needs approval (the contract's `approvalRoles`, docs/decisions/0093). */
export type ApplicantKind = ApprovalRole;
export type Application = ExpertApplication | OfficerApplication;
type ApplicationPage = ExpertApplicationPage | OfficerApplicationPage;

/** Each role's list, approve and refuse (a role added to the contract's list fails the type check here). */
const PATHS: Record<
  ApplicantKind,
  { applications: string; approvePath(id: number): string; refusePath(id: number): string }
> = {
  expert: vettingApi,
  officer: extensionApi,
};
const pathsOf = (kind: ApplicantKind) => PATHS[kind];
const vettingKey = (kind: ApplicantKind) => [`${kind}-applications`] as const;

/** A page of applications, pending first. */
export const useApplications = (kind: ApplicantKind, page: number, pageSize: number, status: VettingStatus | null) =>
  useQuery({
    queryKey: [...vettingKey(kind), page, pageSize, status],
    queryFn: ({ signal }) =>
      http.get<ApplicationPage>(
        pathsOf(kind).applications,
        { page, page_size: pageSize, ...(status && { status }) },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

export function useDecide(kind: ApplicantKind) {
  const client = useQueryClient();
  return useMutation({
    // Approval names the state the administrator saw, so an approval racing a refusal fails (409).
    // An approved officer's approval is withdrawn with a reason, as a refusal is given.
    mutationFn: ({ id, reason, from }: { id: number; reason?: string; from?: VettingStatus }) =>
      reason === undefined
        ? http.post<Application>(pathsOf(kind).approvePath(id), { from: from === 'refused' ? 'refused' : 'pending' })
        : from === 'approved' && kind === 'officer'
          ? http.post<Application>(extensionApi.withdrawPath(id), { reason })
          : http.post<Application>(pathsOf(kind).refusePath(id), { reason }),
    onSettled: () => void client.invalidateQueries({ queryKey: vettingKey(kind) }),
  });
}
