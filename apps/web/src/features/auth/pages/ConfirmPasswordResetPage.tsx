import { useState, type FormEvent } from 'react';
import { Alert, Button, Stack } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../app/routes.ts';
import { NewPasswordFields } from '../../../components/PasswordStrength/NewPasswordFields.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useResetPassword } from '../api/auth.ts';
import { AuthLinks } from '../components/AuthLinks.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { newPasswordProblem } from '../forms.ts';

export const INVALID_TOKEN = 'Invalid Token, check your email';

export default function ConfirmPasswordResetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const reset = useResetPassword();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!token) return notifyError(INVALID_TOKEN, t('auth.error'));
    const problem = newPasswordProblem(password, confirm);
    if (problem) {
      // Spec point 5: a refused new password clears both fields.
      setPassword('');
      setConfirm('');
      setErrors({ [problem.field]: problem.message });
      return;
    }
    setErrors({});
    reset.mutate(
      { token, new_password: password, confirm_password: confirm },
      {
        onSuccess: (reply) => {
          notifySuccess(reply.message, t('auth.success'));
          navigate(routes.auth.login);
        },
        onError: (err) => notifyError(errorMessage(err), t('auth.error')),
      },
    );
  };

  return (
    <>
      <AuthTitle title={t('auth.reset.title')}>{t('auth.reset.subtitle')}</AuthTitle>
      {!token ? (
        <Alert color="red" mb="md" title={INVALID_TOKEN}>
          {t('auth.reset.noToken')}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack>
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
            passwordLabel={t('auth.fields.newPassword')}
          />
          <Button type="submit" loading={reset.isPending} fullWidth>
            {t('auth.submit')}
          </Button>
        </Stack>
      </form>
      <AuthLinks links={['signup', 'login', 'terms', 'contactUs']} />
    </>
  );
}
