import { useState, type FormEvent } from 'react';
import { Button, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useForgotPassword } from '../api/auth.ts';
import { AuthLinks } from '../components/AuthLinks.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { isEmail } from '../forms.ts';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const forgot = useForgotPassword();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!isEmail(email)) {
      setError(email.trim() ? t('auth.login.wrongEmail') : t('auth.fields.emailRequired'));
      return;
    }
    forgot.mutate(
      { email: email.trim() },
      {
        onSuccess: (reply) => {
          notifySuccess(reply.message, t('auth.success'));
          setEmail('');
        },
        onError: (err) => notifyError(errorMessage(err), t('auth.error')),
      },
    );
  };

  return (
    <>
      <AuthTitle title={t('auth.forgot.title')}>{t('auth.forgot.subtitle')}</AuthTitle>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            required
          />
          <Button type="submit" loading={forgot.isPending} fullWidth>
            {t('auth.submit')}
          </Button>
        </Stack>
      </form>
      <AuthLinks links={['signup', 'login', 'terms', 'contactUs']} />
    </>
  );
}
