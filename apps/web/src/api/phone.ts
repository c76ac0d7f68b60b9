import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallbackPage, UssdSimulateReply } from '@kutu/contract';
import { phoneApi } from '@kutu/contract/phone-paths';
import { http } from '../lib/api.ts';

const callbacksKey = ['phone-callbacks'] as const;

/** A page of call-back requests from basic phones (experts). */
export const useCallbacks = (page: number, pageSize: number, state: 'open' | 'done') =>
  useQuery({
    queryKey: [...callbacksKey, page, pageSize, state],
    queryFn: ({ signal }) => http.get<CallbackPage>(phoneApi.callbacks, { page, page_size: pageSize, state }, signal),
    placeholderData: keepPreviousData,
  });

export function useCallbackDone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<null>(phoneApi.callbackDonePath(id)),
    onSettled: () => void client.invalidateQueries({ queryKey: callbacksKey }),
  });
}

/** One step of the USSD menu through the server's real handler (the gateway's secret stays there). */
export const useUssdStep = () =>
  useMutation({
    mutationFn: (step: { session_id: string; phone: string; text: string }) =>
      http.post<UssdSimulateReply>(phoneApi.simulate, step),
  });
