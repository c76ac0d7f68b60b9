import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClinicFieldChoicePage, ClinicRecordPage, ClinicVerdictBody, ClinicVisit } from '@kutu/contract';
import { api, clinicApi, IDEMPOTENCY_KEY_HEADER } from '@kutu/contract/paths';
import { ApiError, http, request } from '../lib/api.ts';
import { session } from '../lib/session.ts';

const clinicKey = ['clinic'] as const;

/** The expert's own clinic records, one page. */
export const useClinicRecords = (page: number, pageSize: number) =>
  useQuery({
    queryKey: [...clinicKey, 'records', page, pageSize],
    queryFn: ({ signal }) => http.get<ClinicRecordPage>(clinicApi.visits, { page, page_size: pageSize }, signal),
    placeholderData: keepPreviousData,
  });

/** The fields of the farmer of a number (none for a number without a farmer); `phone` null: not asked yet. */
export const useFarmerFields = (phone: string | null) =>
  useQuery({
    queryKey: [...clinicKey, 'farmer-fields', phone],
    queryFn: ({ signal }) =>
      http.get<ClinicFieldChoicePage>(clinicApi.farmerFields, { phone_number: phone ?? '', page_size: 50 }, signal),
    enabled: phone !== null,
    staleTime: 60_000,
  });

/** One of the expert's visits, as its result screen shows it (a visit not answered yet is finished there). */
export const useClinicVisit = (id: number) =>
  useQuery({
    queryKey: [...clinicKey, 'visit', id],
    queryFn: ({ signal }) => http.get<ClinicVisit>(clinicApi.visitPath(id), undefined, signal),
  });

/** Records a visit (photos + fields). `key` stays the same for the form's retries: the server makes one visit. */
export function useRecordVisit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ form, key }: { form: FormData; key: string }) =>
      request<ClinicVisit>(clinicApi.visits, { method: 'POST', form, headers: { [IDEMPOTENCY_KEY_HEADER]: key } }),
    onSuccess: () => client.invalidateQueries({ queryKey: clinicKey }),
  });
}

/** The expert confirms or corrects Kutu; the farmer gets one result SMS. */
export function useClinicVerdict(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ClinicVerdictBody) => http.post<ClinicVisit>(clinicApi.verdictPath(id), body),
    onSuccess: () => client.invalidateQueries({ queryKey: clinicKey }),
  });
}

/** The records as a CSV file (the browser saves it). */
export async function downloadClinicCsv(): Promise<void> {
  const get = () => fetch(clinicApi.csv, { headers: { authorization: `Bearer ${session.accessToken() ?? ''}` } });
  let res = await get();
  if (res.status === 401) {
    await request(api.auth.me);
    res = await get();
  }
  if (!res.ok) throw new ApiError(res.status, 'HTTP_ERROR', String(res.status));
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = `kutu-clinic-records-${new Date().toISOString().slice(0, 10)}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
