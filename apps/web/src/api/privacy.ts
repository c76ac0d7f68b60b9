import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConsentChangeBody, ConsentState, DeleteAccountBody, MessageReply } from '@kutu/contract';
import { api, privacyApi } from '@kutu/contract/paths';
import { ApiError, http, request } from '../lib/api.ts';
import { session } from '../lib/session.ts';

const consentKey = ['privacy', 'consents'] as const;

/** The signed-in person's consent choices (service, SMS, photos for training). */
export const useConsents = () =>
  useQuery({ queryKey: consentKey, queryFn: () => http.get<ConsentState>(privacyApi.consents) });

export function useChangeConsent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ConsentChangeBody) => http.put<ConsentState>(privacyApi.consents, body),
    onSuccess: (state) => client.setQueryData(consentKey, state),
  });
}

export const useSendDeleteCode = () => useMutation({ mutationFn: () => http.post<void>(privacyApi.deleteCode) });

/** Deleting the account: the server has ended every session; this device forgets the account, and sign-in says so. */
export function useDeleteAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeleteAccountBody) => http.post<MessageReply>(privacyApi.deleteAccount, body),
    onSuccess: () => {
      session.signOutDeleted();
      client.clear();
    },
  });
}

/**
 * "Download my data": the archive saved as a file. The shared request helper reads JSON only, so the
 * archive is fetched here with the same token (an expired one is refreshed by one call through the helper).
 */
export async function downloadMyData(): Promise<void> {
  const get = () => fetch(privacyApi.export, { headers: { authorization: `Bearer ${session.accessToken() ?? ''}` } });
  let res = await get();
  if (res.status === 401) {
    await request(api.auth.me);
    res = await get();
  }
  if (!res.ok) throw new ApiError(res.status, 'HTTP_ERROR', String(res.status));
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'kutu-my-data.tar.gz';
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
