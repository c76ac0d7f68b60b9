import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { HeldWalks, OfficerAction, OfficerActionBody, OfficerMeReply, OfficerWeek } from '@kutu/contract';
import { extensionApi } from '@kutu/contract/paths';
import { ApiError, http } from '../lib/api.ts';
import { currentLanguage } from '../lib/language.ts';
import { session } from '../lib/session.ts';

const weekKey = ['extension-week'] as const;

/** The officer's application: waiting, refused, or approved with its districts. */
export const useOfficerMe = () =>
  useQuery({
    queryKey: ['extension-me'],
    queryFn: ({ signal }) => http.get<OfficerMeReply>(extensionApi.me, undefined, signal),
  });

/** One district's week (`day`: any day of it; null: this week). */
export const useWeek = (code: string | null, day: string | null) =>
  useQuery({
    queryKey: [...weekKey, code, day],
    enabled: code !== null,
    queryFn: ({ signal }) =>
      http.get<OfficerWeek>(extensionApi.weekPath(code!), day ? { week: day } : undefined, signal),
  });

export function useRecordAction(code: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OfficerActionBody) => http.post<OfficerAction>(extensionApi.actionsPath(code), body),
    onSuccess: () => void client.invalidateQueries({ queryKey: weekKey }),
  });
}

const heldKey = ['extension-held-walks'] as const;

/** The district's walks that wait for the officer (or an expert) before they count (decision 0105). */
export const useHeldWalks = (code: string) =>
  useQuery({
    queryKey: [...heldKey, code],
    queryFn: ({ signal }) => http.get<HeldWalks>(extensionApi.heldWalksPath(code), undefined, signal),
  });

/** Confirms a held walk: it counts from now on, in the week's figures too. */
export function useConfirmWalk() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<void>(extensionApi.confirmWalkPath(id)),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: heldKey });
      void client.invalidateQueries({ queryKey: weekKey });
    },
  });
}

/** Downloads the week's CSV or PDF (the routes need the bearer token, so the file is fetched, then saved). */
export async function downloadReport(code: string | null, day: string, kind: 'csv' | 'pdf'): Promise<void> {
  // No code: every district of the officer (one PDF page each).
  const path =
    code === null
      ? kind === 'csv'
        ? extensionApi.allReportCsv
        : extensionApi.allReportPdf
      : kind === 'csv'
        ? extensionApi.reportCsvPath(code)
        : extensionApi.reportPdfPath(code);
  const res = await fetch(`${path}?week=${day}`, {
    headers: { authorization: `Bearer ${session.accessToken() ?? ''}`, 'accept-language': currentLanguage() },
  });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new ApiError(res.status, body?.error?.code ?? 'HTTP_ERROR', body?.error?.message ?? String(res.status), {});
  }
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `kutu-${code ?? 'districts'}-${day}.${kind}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
