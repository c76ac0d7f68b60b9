import { useRef, useState, type FormEvent } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../app/routes.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import { useLogin } from '../api/auth.ts';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { isEmail, safeReturnTo } from '../forms.ts';

/** Full page load after sign-in (spec: a successful login reloads the page). */
export function goAfterSignIn(assign: (url: string) => void = (url) => window.location.assign(url)) {
  assign(safeReturnTo(session.takeReturnTo()) ?? routes.dashboard);
}

export default function LoginPage() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const login = useLogin();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!isEmail(email)) {
      setEmail('');
      notifyError(t('auth.login.wrongEmail'), t('auth.login.invalidEmail'));
      emailRef.current?.focus();
      return;
    }
    if (!password) {
      setPasswordError(t('auth.login.passwordRequired'));
      return;
    }
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (reply) => {
          session.signIn(reply);
          goAfterSignIn();
        },
        onError: (err) => notifyError(errorMessage(err), t('auth.error')),
      },
    );
  };

  return (
    <>
      <AuthTitle title={t('auth.login.title')}>{t('auth.login.subtitle')}</AuthTitle>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            ref={emailRef}
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            required
          />
          <PasswordInput
            label={t('auth.fields.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.currentTarget.value);
              setPasswordError(null);
            }}
            error={passwordError}
            visibilityToggleButtonProps={{ 'aria-label': t('auth.fields.togglePassword') }}
            required
          />
          <Group justify="flex-end">
            <Anchor component={Link} to={routes.auth.forgotPassword} size="sm">
              {t('auth.links.forgotPassword')}
            </Anchor>
          </Group>
          <Button type="submit" loading={login.isPending} fullWidth>
            {t('auth.login.submit')}
          </Button>
        </Stack>
      </form>
      <Stack gap={4} mt="lg" align="center">
        <Text size="sm">
          {t('auth.login.noAccount')}{' '}
          <Anchor component={Link} to={routes.auth.signup}>
            {t('auth.login.farmerSignup')}
          </Anchor>
        </Text>
        <Text size="sm">
          {t('auth.login.expert')}{' '}
          <Anchor component={Link} to={routes.auth.expertSignup}>
            {t('auth.login.expertSignup')}
          </Anchor>
        </Text>
      </Stack>
    </>
  );
}
