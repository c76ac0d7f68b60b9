import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { translateMessage } from '../../../lib/validation.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import { useResendOtp, useVerifyEmail } from '../../../api/auth.ts';
import { AuthLinks } from '../components/AuthLinks.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { CodeInput } from '../../../components/CodeInput.tsx';

export const CODE_REQUIRED = 'Please enter the verification code.';
export const TOKEN_REQUIRED = 'Verification token is missing!';

export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') || session.signUpToken();
  const [code, setCode] = useState(() => (params.get('verificationToken') ?? '').replace(/\D/g, '').slice(0, 4));
  const [error, setError] = useState<string | null>(null);
  const verify = useVerifyEmail();
  const resend = useResendOtp();
  const autoTried = useRef(false);

  const run = (value: string) => {
    if (!value) return setError(CODE_REQUIRED);
    if (!/^\d{4}$/.test(value)) return setError(t('auth.codeLength'));
    setError(null);
    if (!token) return notifyError(translateMessage(TOKEN_REQUIRED), t('auth.error'));
    verify.mutate(
      { token, verificationCode: value },
      {
        onSuccess: (reply) => {
          // The reply's token carries the account on to activation.
          session.setSignUpToken(reply.token || token);
          notifySuccess(reply.message, t('auth.success'));
          navigate(routes.auth.activation);
        },
        onError: (err) => {
          setError(errorMessage(err));
          notifyError(errorMessage(err), t('auth.error'));
        },
      },
    );
  };

  // The emailed link carries both the token and the code: verify straight away, once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once on arrival by design
  useEffect(() => {
    if (autoTried.current) return;
    autoTried.current = true;
    if (token && /^\d{4}$/.test(code)) run(code);
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    run(code);
  };

  const resendCode = () => {
    if (!token) return notifyError(translateMessage(TOKEN_REQUIRED), t('auth.error'));
    resend.mutate(
      { actionType: 'EMAIL_VERIFICATION', token },
      {
        onSuccess: (reply) => notifySuccess(reply.message, t('auth.success')),
        onError: (err) => notifyError(errorMessage(err), t('auth.error')),
      },
    );
  };

  return (
    <>
      <AuthTitle title={t('auth.verify.title')}>{t('auth.verify.subtitle')}</AuthTitle>
      {!token ? (
        <Alert color="red" mb="md" title={translateMessage(TOKEN_REQUIRED)}>
          {t('auth.verify.noToken')}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack>
          <CodeInput
            label={t('auth.verify.code')}
            value={code}
            onChange={(v) => {
              setCode(v);
              setError(null);
            }}
            error={error}
            autoFocus
          />
          <Button type="submit" loading={verify.isPending} fullWidth>
            {t('auth.verify.submit')}
          </Button>
          <Group justify="center">
            <Button variant="subtle" size="compact-sm" onClick={resendCode} loading={resend.isPending}>
              {t('auth.verify.resend')}
            </Button>
          </Group>
        </Stack>
      </form>
      <AuthLinks links={['login', 'terms', 'privacy']} />
    </>
  );
}
