import { useCallback, useState } from 'react';
import type { z } from 'zod';
import { api } from '@kutu/contract/paths';
import type {
  activateBody,
  ExpertRegisterBody,
  OfficerRegisterBody,
  FarmerRegisterBody,
  forgotPasswordBody,
  LoginReply,
  loginBody,
  MessageReply,
  resendOtpBody,
  ResetPasswordByCodeBody,
  resetPasswordBody,
  verifyEmailBody,
} from '@kutu/contract';
import { http } from '../lib/api.ts';
import { withLanguage } from '../lib/language-sync.ts';

export type LoginBody = z.input<typeof loginBody>;
export type VerifyEmailBody = z.input<typeof verifyEmailBody>;
export type ResendOtpBody = z.input<typeof resendOtpBody>;
export type ActivateBody = z.input<typeof activateBody>;
export type ForgotPasswordBody = z.input<typeof forgotPasswordBody>;
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;
/** `identifier`: the account's email or phone, for the sign-in form. */
export interface ActivateReply {
  message: string;
  identifier?: string;
}
export interface TokenReply {
  message: string;
  token: string;
}

/** The signed-out calls of the account flow (they never carry a bearer token). */
export const authApi = {
  login: (body: LoginBody) => http.post<LoginReply>(api.auth.login, body, { auth: false }),
  // A new account starts in the language its sign-up form was shown in.
  registerFarmer: (body: FarmerRegisterBody) =>
    http.post<TokenReply>(api.auth.registerFarmer, withLanguage(body), { auth: false }),
  registerExpert: (body: ExpertRegisterBody) =>
    http.post<TokenReply>(api.auth.registerExpert, withLanguage(body), { auth: false }),
  registerOfficer: (body: OfficerRegisterBody) =>
    http.post<TokenReply>(api.auth.registerOfficer, withLanguage(body), { auth: false }),
  verifyEmail: (body: VerifyEmailBody) => http.post<TokenReply>(api.auth.verifyEmail, body, { auth: false }),
  resendOtp: (body: ResendOtpBody) => http.post<MessageReply>(api.auth.resendOtp, body, { auth: false }),
  activate: (body: ActivateBody) => http.post<ActivateReply>(api.auth.activate, body, { auth: false }),
  forgotPassword: (body: ForgotPasswordBody) => http.post<MessageReply>(api.auth.forgotPassword, body, { auth: false }),
  resetPassword: (body: ResetPasswordBody) => http.post<MessageReply>(api.auth.resetPassword, body, { auth: false }),
  resetPasswordByCode: (body: ResetPasswordByCodeBody) =>
    http.post<MessageReply>(api.auth.resetPasswordByCode, body, { auth: false }),
};

interface Handlers<R> {
  onSuccess?: (reply: R) => void;
  onError?: (err: Error) => void;
}

/**
 * The part of TanStack Query's useMutation the auth screens use. Query itself loads with the account
 * shell: the screens before sign-in do not download it (decision 0016).
 */
function useCall<B, R>(call: (body: B) => Promise<R>) {
  const [isPending, setPending] = useState(false);
  const mutate = useCallback(
    (body: B, handlers: Handlers<R> = {}) => {
      setPending(true);
      call(body).then(
        (reply) => {
          setPending(false);
          handlers.onSuccess?.(reply);
        },
        (err: Error) => {
          setPending(false);
          handlers.onError?.(err);
        },
      );
    },
    [call],
  );
  return { mutate, isPending };
}

export const useLogin = () => useCall(authApi.login);
export const useRegisterFarmer = () => useCall(authApi.registerFarmer);
export const useRegisterExpert = () => useCall(authApi.registerExpert);
export const useRegisterOfficer = () => useCall(authApi.registerOfficer);
export const useVerifyEmail = () => useCall(authApi.verifyEmail);
export const useResendOtp = () => useCall(authApi.resendOtp);
export const useActivate = () => useCall(authApi.activate);
export const useForgotPassword = () => useCall(authApi.forgotPassword);
export const useResetPassword = () => useCall(authApi.resetPassword);
export const useResetPasswordByCode = () => useCall(authApi.resetPasswordByCode);
