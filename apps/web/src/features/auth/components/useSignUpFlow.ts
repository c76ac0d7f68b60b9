import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../app/routes.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import type { TokenReply } from '../api/auth.ts';
import { serverFieldErrors } from '../forms.ts';

/** What both sign-up forms do with the server's answer. */
export function useSignUpFlow(setErrors: (errors: Record<string, string>) => void) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return {
    /** Keeps the sign-up token and opens Verify Email, where the emailed code is typed. */
    onSuccess: (reply: TokenReply) => {
      session.setSignUpToken(reply.token);
      notifySuccess(reply.message, t('auth.success'));
      navigate(`${routes.auth.verifyEmail}?token=${encodeURIComponent(reply.token)}`);
    },
    onError: (err: unknown) => {
      setErrors(serverFieldErrors(err));
      notifyError(errorMessage(err), t('auth.error'));
    },
    invalid: (errors: Record<string, string>) => {
      setErrors(errors);
      notifyError(t('auth.signup.fixFields'), t('auth.error'));
    },
  };
}
