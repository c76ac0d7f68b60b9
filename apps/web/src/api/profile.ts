import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AddEmailBody,
  CompleteProfileBody,
  ConfirmEmailBody,
  changePasswordBody,
  MessageReply,
  UserRecord,
} from '@kutu/contract';
import { api } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';
import { session } from '../lib/session.ts';
import { meQuery } from './me.ts';

export type ChangePasswordBody = z.input<typeof changePasswordBody>;
export interface ChangePasswordReply {
  message: string;
  access: string;
  refresh: string;
}

export const useMe = () => useQuery(meQuery);

export function useCompleteProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CompleteProfileBody) => http.put<UserRecord>(api.auth.completeProfile, body),
    onSuccess: (user) => {
      session.setUser(user);
      client.setQueryData(meQuery.queryKey, user);
    },
  });
}

export const useAddEmail = () =>
  useMutation({ mutationFn: (body: AddEmailBody) => http.post<MessageReply>(api.auth.addEmail, body) });

export function useConfirmEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfirmEmailBody) => http.post<UserRecord>(api.auth.confirmEmail, body),
    onSuccess: (user) => {
      session.setUser(user);
      client.setQueryData(meQuery.queryKey, user);
    },
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => http.put<ChangePasswordReply>(api.auth.changePassword, body),
    onSuccess: (reply) => {
      // The server signs out other devices and gives this one a fresh pair.
      if (reply?.access && reply.refresh) session.setTokens(reply);
    },
  });
}
