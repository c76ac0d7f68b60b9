import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ExpertApplication,
  ExpertApplicationPage,
  OfficerApplication,
  OfficerApplicationPage,
  VettingStatus,
} from '@kutu/contract';
import { extensionApi, vettingApi } from '@kutu/contract/paths';
import { http } from '../../../lib/api.ts';

/** Who applies: an expert (docs/decisions/0027) or an extension officer, vetted the same way. */
export type ApplicantKind = 'expert' | 'officer';
export type Application = ExpertApplication | OfficerApplication;
type ApplicationPage = ExpertApplicationPage | OfficerApplicationPage;

const pathsOf = (kind: ApplicantKind) => (kind === 'expert' ? vettingApi : extensionApi);
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
