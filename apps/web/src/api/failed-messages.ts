import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FailedMessagePage } from '@kutu/contract';
import { deliveryApi } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';

const failedKey = ['failed-messages'] as const;

/** A page of messages (SMS, email) that failed for good, newest first (docs/decisions/0050). */
export const useFailedMessages = (page: number, pageSize: number) =>
  useQuery({
    queryKey: [...failedKey, page, pageSize],
    queryFn: ({ signal }) => http.get<FailedMessagePage>(deliveryApi.failed, { page, page_size: pageSize }, signal),
    placeholderData: keepPreviousData,
  });

export function useSendAgain() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<null>(deliveryApi.resendPath(id)),
    onSettled: () => void client.invalidateQueries({ queryKey: failedKey }),
  });
}
