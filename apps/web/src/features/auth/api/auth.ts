import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@kutu/contract/paths';
import type {
  activateBody,
  ExpertRegisterBody,
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
import { http } from '../../../lib/api.ts';
import { withLanguage } from '../../../lib/language-sync.ts';

export type LoginBody = z.input<typeof loginBody>;
export type VerifyEmailBody = z.input<typeof verifyEmailBody>;
export type ResendOtpBody = z.input<typeof resendOtpBody>;
export type ActivateBody = z.input<typeof activateBody>;
export type ForgotPasswordBody = z.input<typeof forgotPasswordBody>;
export type ResetPasswordBody = z.input<typeof resetPasswordBody>;
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
  verifyEmail: (body: VerifyEmailBody) => http.post<TokenReply>(api.auth.verifyEmail, body, { auth: false }),
  resendOtp: (body: ResendOtpBody) => http.post<MessageReply>(api.auth.resendOtp, body, { auth: false }),
  activate: (body: ActivateBody) => http.post<MessageReply>(api.auth.activate, body, { auth: false }),
  forgotPassword: (body: ForgotPasswordBody) => http.post<MessageReply>(api.auth.forgotPassword, body, { auth: false }),
  resetPassword: (body: ResetPasswordBody) => http.post<MessageReply>(api.auth.resetPassword, body, { auth: false }),
  resetPasswordByCode: (body: ResetPasswordByCodeBody) =>
    http.post<MessageReply>(api.auth.resetPasswordByCode, body, { auth: false }),
};

export const useLogin = () => useMutation({ mutationFn: authApi.login });
export const useRegisterFarmer = () => useMutation({ mutationFn: authApi.registerFarmer });
export const useRegisterExpert = () => useMutation({ mutationFn: authApi.registerExpert });
export const useVerifyEmail = () => useMutation({ mutationFn: authApi.verifyEmail });
export const useResendOtp = () => useMutation({ mutationFn: authApi.resendOtp });
export const useActivate = () => useMutation({ mutationFn: authApi.activate });
export const useForgotPassword = () => useMutation({ mutationFn: authApi.forgotPassword });
export const useResetPassword = () => useMutation({ mutationFn: authApi.resetPassword });
export const useResetPasswordByCode = () => useMutation({ mutationFn: authApi.resetPasswordByCode });
