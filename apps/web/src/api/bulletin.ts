import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Application } from '@kutu/contract';
import { forecastApi } from '@kutu/contract/forecast-paths';
import { vettingApi } from '@kutu/contract/paths';
import { ApiError, http } from '../lib/api.ts';
import { currentLanguage } from '../lib/language.ts';
import { session } from '../lib/session.ts';

/**
 * Downloads the national rust bulletin as CSV or PDF (administrators and national officers, decision 0122;
 * the routes need the bearer token, so the file is fetched, then saved).
 */
export async function downloadBulletin(kind: 'csv' | 'pdf'): Promise<void> {
  const res = await fetch(kind === 'csv' ? forecastApi.bulletinCsv : forecastApi.bulletinPdf, {
    headers: { authorization: `Bearer ${session.accessToken() ?? ''}`, 'accept-language': currentLanguage() },
  });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new ApiError(res.status, body?.error?.code ?? 'HTTP_ERROR', body?.error?.message ?? String(res.status), {});
  }
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `kutu-rust-bulletin.${kind}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An administrator grants or takes back an approved officer's national scope (the bulletin). */
export function useSetNational() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, national }: { id: number; national: boolean }) =>
      http.put<Application>(vettingApi.nationalPath(id), { national }),
    onSettled: () => void client.invalidateQueries({ queryKey: ['officer-applications'] }),
  });
}
