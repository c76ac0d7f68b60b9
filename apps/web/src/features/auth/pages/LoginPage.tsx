import { useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { type FormErrors, useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import { useLogin } from '../../../api/auth.ts';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { safeReturnTo, serverFieldErrors, signInIdentifier } from '../../../lib/forms.ts';
import { PasswordField } from '../../../components/PasswordStrength/PasswordField.tsx';

/** Full page load after sign-in (spec: a successful login reloads the page). */
export function goAfterSignIn(assign: (url: string) => void = (url) => window.location.assign(url)) {
  assign(safeReturnTo(session.takeReturnTo()) ?? routes.dashboard);
}

export default function LoginPage() {
  const { t } = useTranslation();
  // loginBody's rules and messages, without zod: the sign-in page keeps zod off its bytes (decision 0016).
  const form = useForm({
    mode: 'controlled',
    initialValues: { identifier: '', password: '' },
    validate: {
      // Something with an @ was meant as an email: the spec's wrong-email words; otherwise the phone hint.
      identifier: (value) =>
        signInIdentifier(value)
          ? null
          : t(value.includes('@') ? 'auth.login.wrongEmail' : 'auth.login.wrongIdentifier'),
      password: (value) => (value ? null : t('auth.login.passwordRequired')),
    },
  });
  /** Why a right password did not sign in (sign-up not finished) and what was sent: kept on the page. */
  const [unfinished, setUnfinished] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const login = useLogin();
  const expired = useSearchParams()[0].get('expired') === '1';

  const invalid = (errors: FormErrors) => {
    if (!errors.identifier) return;
    // Spec: a malformed email is cleared and said in a toast, not under the field, before anything else.
    const asEmail = form.values.identifier.includes('@');
    form.setFieldValue('identifier', '');
    form.setErrors({});
    notifyError(String(errors.identifier), t(asEmail ? 'auth.login.invalidEmail' : 'auth.login.invalidIdentifier'));
    emailRef.current?.focus();
  };

  const submit = form.onSubmit(({ identifier, password }) => {
    setUnfinished(null);
    login.mutate(
      { identifier: signInIdentifier(identifier) ?? identifier.trim(), password },
      {
        onSuccess: (reply) => {
          session.signIn(reply);
          goAfterSignIn();
        },
        onError: (err) => {
          // 403: the password was right but the sign-up is not finished; the message says what was sent.
          if (err instanceof ApiError && err.status === 403) setUnfinished(err.message);
          else {
            form.setErrors(serverFieldErrors(err));
            notifyError(errorMessage(err), t('auth.error'));
          }
        },
      },
    );
  }, invalid);

  return (
    <>
      <AuthTitle title={t('auth.login.title')}>{t('auth.login.subtitle')}</AuthTitle>
      {expired && !unfinished ? (
        <Alert color="blue" mb="md" data-testid="session-expired">
          {t('auth.login.sessionEnded')}
        </Alert>
      ) : null}
      {unfinished ? (
        <Alert color="yellow" mb="md" title={t('auth.login.unfinished')}>
          {unfinished}
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            ref={emailRef}
            label={t('auth.fields.emailOrPhone')}
            type="text"
            autoComplete="username"
            required
            {...form.getInputProps('identifier')}
          />
          <PasswordField
            label={t('auth.fields.password')}
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
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
