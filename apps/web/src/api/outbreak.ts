import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  OutbreakSettingsBody,
  OutbreakSettingsReply,
  OutbreakCrop,
  OutbreakMapReply,
  OutbreakTablePage,
  OutbreakTrendReply,
  UserRecord,
} from '@kutu/contract';
import { outbreakApi } from '@kutu/contract/outbreak-paths';
import { api } from '@kutu/contract/paths';
import { ApiError, http, request } from '../lib/api.ts';
import { session } from '../lib/session.ts';
import type { Country } from '../lib/geo/geo.ts';

/**
 * Every outbreak query starts with this key. The map and the trends are kept on the phone with the
 * other saved queries (lib/saved-queries.ts) so the map reads offline from the last copy; the expert's
 * table is not.
 */
export const outbreakKey = ['outbreak'] as const;

export const outbreakMapQuery = (crop: OutbreakCrop) =>
  queryOptions({
    queryKey: [...outbreakKey, 'map', crop],
    queryFn: ({ signal }) => http.get<OutbreakMapReply>(outbreakApi.map, { crop }, signal),
    placeholderData: keepPreviousData,
  });

export const outbreakTrendQuery = (code: string, crop: OutbreakCrop) =>
  queryOptions({
    queryKey: [...outbreakKey, 'trend', code, crop],
    queryFn: ({ signal }) => http.get<OutbreakTrendReply>(outbreakApi.trendPath(code), { crop }, signal),
  });

export interface TableParams {
  crop: OutbreakCrop;
  country: Country;
  page: number;
  page_size: number;
}
export const outbreakTableQuery = (q: TableParams) =>
  queryOptions({
    queryKey: [...outbreakKey, 'table', q],
    queryFn: ({ signal }) => http.get<OutbreakTablePage>(outbreakApi.districts, { ...q }, signal),
    placeholderData: keepPreviousData,
  });

export const useOutbreakMap = (crop: OutbreakCrop) => useQuery(outbreakMapQuery(crop));
export const useOutbreakTrend = (code: string, crop: OutbreakCrop) => useQuery(outbreakTrendQuery(code, crop));
export const useOutbreakTable = (q: TableParams) => useQuery(outbreakTableQuery(q));

/** The farmer's district, SMS alerts and rust warning calls; the stored user record follows so every screen sees it. */
export function useOutbreakSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OutbreakSettingsBody) => http.put<OutbreakSettingsReply>(outbreakApi.settings, body),
    onSuccess: (reply) => {
      const user = client.getQueryData<UserRecord>(['me']) ?? session.user();
      if (user) {
        const next: UserRecord = {
          ...user,
          district: reply.district,
          needsDistrict: reply.needs_district,
          farmer: user.farmer
            ? { ...user.farmer, sms_alerts: reply.sms_alerts, voice_warnings: reply.voice_warnings }
            : user.farmer,
        };
        session.setUser(next);
        client.setQueryData(['me'], next);
      }
      void client.invalidateQueries({ queryKey: outbreakKey });
    },
  });
}

/**
 * The expert's CSV of weekly counts, saved as a file. The shared request helper reads JSON only, so the
 * file is fetched here with the same token; an expired token is refreshed by one authenticated call
 * through the helper, then the download is tried once more.
 */
export async function downloadOutbreakCsv(crop: OutbreakCrop | undefined): Promise<void> {
  const url = crop ? `${outbreakApi.exportCsv}?crop=${encodeURIComponent(crop)}` : outbreakApi.exportCsv;
  const get = () => fetch(url, { headers: { authorization: `Bearer ${session.accessToken() ?? ''}` } });
  let res = await get();
  if (res.status === 401) {
    await request(api.auth.me);
    res = await get();
  }
  if (!res.ok) throw new ApiError(res.status, 'HTTP_ERROR', String(res.status));
  const blob = await res.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `kutu-outbreak-${crop ?? 'all'}-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
