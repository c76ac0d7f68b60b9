import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../app/routes.ts';
import { NewPasswordFields } from '../../../components/PasswordStrength/NewPasswordFields.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import { useActivate, useResendOtp } from '../api/auth.ts';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { CodeInput } from '../components/CodeInput.tsx';
import { newPasswordProblem, serverFieldErrors } from '../forms.ts';

export const TOKEN_MISSING = 'Base64 token was not saved, check your email to retrieve it or contact support';

type Errors = { otp?: string; password?: string; confirm?: string };

export default function ActivationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') || session.signUpToken();
  const [otp, setOtp] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const activate = useActivate();
  const resend = useResendOtp();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!otp) return setErrors({ otp: t('auth.activation.otpRequired') });
    if (!/^\d{4}$/.test(otp)) return setErrors({ otp: t('auth.codeLength') });
    const problem = newPasswordProblem(password, confirm);
    if (problem) return setErrors({ [problem.field]: problem.message });
    setErrors({});
    if (!token) return notifyError(TOKEN_MISSING, t('auth.error'));
    activate.mutate(
      { otp, token, password, confirmPassword: confirm },
      {
        onSuccess: (reply) => {
          session.setSignUpToken(null);
          notifySuccess(reply.message, t('auth.success'));
          navigate(routes.auth.login);
        },
        onError: (err) => {
          const fields = serverFieldErrors(err);
          setErrors({ otp: fields.otp, password: fields.password, confirm: fields.confirmPassword });
          notifyError(errorMessage(err), t('auth.error'));
        },
      },
    );
  };

  const resendCode = () => {
    if (!token) return notifyError(TOKEN_MISSING, t('auth.error'));
    resend.mutate(
      { actionType: 'PHONE_ACTIVATION', token },
      {
        onSuccess: (reply) => notifySuccess(reply.message, t('auth.success')),
        onError: (err) => notifyError(errorMessage(err), t('auth.error')),
      },
    );
  };

  return (
    <>
      <AuthTitle title={t('auth.activation.title')}>{t('auth.activation.subtitle')}</AuthTitle>
      {!token ? (
        <Alert color="red" mb="md" title={t('auth.activation.noToken')}>
          {TOKEN_MISSING}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack>
          <CodeInput
            label={t('auth.activation.code')}
            value={otp}
            onChange={(v) => {
              setOtp(v);
              setErrors((x) => ({ ...x, otp: undefined }));
            }}
            error={errors.otp}
            autoFocus
          />
          <Group justify="flex-end" mt={-8}>
            <Button variant="subtle" size="compact-sm" onClick={resendCode} loading={resend.isPending}>
              {t('auth.activation.resend')}
            </Button>
          </Group>
          <NewPasswordFields
            password={password}
            confirm={confirm}
            onPassword={(v) => {
              setPassword(v);
              setErrors((x) => ({ ...x, password: undefined }));
            }}
            onConfirm={(v) => {
              setConfirm(v);
              setErrors((x) => ({ ...x, confirm: undefined }));
            }}
            passwordError={errors.password}
            confirmError={errors.confirm}
          />
          <Button type="submit" loading={activate.isPending} fullWidth>
            {t('auth.activation.submit')}
          </Button>
        </Stack>
      </form>
      <Group justify="center" mt="lg">
        <Anchor component={Link} to={routes.auth.login} size="sm">
          {t('auth.links.signIn')}
        </Anchor>
      </Group>
    </>
  );
}
