import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import { useLogin } from '../../../api/auth.ts';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { isEmail, looksLikePhone, safeReturnTo, serverFieldErrors } from '../../../lib/forms.ts';
import { PasswordField } from '../../../components/PasswordStrength/PasswordField.tsx';
import { useLazyContractForm } from '../../../lib/contract-form.ts';

/** Full page load after sign-in (spec: a successful login reloads the page). */
export function goAfterSignIn(assign: (url: string) => void = (url) => window.location.assign(url)) {
  assign(safeReturnTo(session.takeReturnTo()) ?? routes.dashboard);
}

/**
 * The phone rules (libphonenumber, the East African countries' metadata) load when the field first
 * looks like a phone number: an email sign-in never downloads them, and sign-in stays in its budget.
 */
type PhoneRules = typeof import('../../../components/PhoneInput/phone.ts');
let phoneRules: Promise<PhoneRules> | undefined;
const loadPhoneRules = () => {
  phoneRules ??= import('../../../components/PhoneInput/phone.ts');
  return phoneRules;
};

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  // loginBody's rules, the schema loaded on the first touch (useLazyContractForm: zod stays off sign-in's
  // bytes, decision 0016), and how sign-in reads the field: an email, or a phone number.
  const { form, onSubmit, formProps } = useLazyContractForm((contract) => contract.loginBody, {
    // After activation the sign-in opens with the account's email or phone filled in, not typed again.
    initialValues: { identifier: params.get('identifier') ?? '', password: '' },
    check: ({ identifier }) => ({
      identifier:
        !identifier.trim() || (identifier.includes('@') ? isEmail(identifier) : looksLikePhone(identifier))
          ? null
          : t(identifier.includes('@') ? 'auth.login.wrongEmail' : 'auth.login.wrongIdentifier'),
    }),
  });
  /**
   * Why a right password did not sign in (sign-up not finished) and what was sent: kept on the page, with
   * the screen to type the new code on when the server gave this browser the sign-up token.
   */
  const [unfinished, setUnfinished] = useState<{ message: string; next: string | null } | null>(null);
  const [rules, setRules] = useState<PhoneRules | null>(null);
  const [country, setCountry] = useState<string | null>(null);
  const identifierRef = useRef<HTMLInputElement>(null);
  const login = useLogin();
  const expired = params.get('expired') === '1';
  // Back here after deleting the account (profile → My data): said on the page, as a notice would be cleared.
  const deleted = session.accountDeleted();

  const typed = form.values.identifier;
  const asPhone = looksLikePhone(typed);
  useEffect(() => {
    if (!asPhone || rules) return;
    void loadPhoneRules().then((loaded) => {
      setRules(loaded);
      setCountry((c) => c ?? loaded.regionCountry());
    });
  }, [asPhone, rules]);

  /** What a phone number typed in the local form (0712 345 678) means with the chosen country. */
  const phone = asPhone && rules ? rules.analysePhone(typed, rules.availableCountry(country)) : null;
  const understood = phone?.valid ? rules!.formatInternational(phone.value) : null;
  // A number starting with +CC picks its own country.
  const shownCountry = phone?.valid && phone.country ? phone.country : country;

  const submit = onSubmit(
    async ({ identifier, password }) => {
      setUnfinished(null);
      let sent = identifier.trim();
      if (looksLikePhone(identifier)) {
        const loaded = await loadPhoneRules();
        const read = loaded.analysePhone(identifier, loaded.availableCountry(country) ?? loaded.regionCountry());
        if (!read.valid) {
          // Said at the field that needs fixing; what was typed stays.
          form.setFieldError('identifier', t('auth.login.wrongPhone'));
          identifierRef.current?.focus();
          return;
        }
        sent = read.value;
      }
      login.mutate(
        { identifier: sent, password },
        {
          onSuccess: (reply) => {
            if (sent.startsWith('+')) void loadPhoneRules().then((loaded) => loaded.rememberCountry(sent));
            session.signIn(reply);
            goAfterSignIn();
          },
          onError: (err) => {
            // 403: the password was right but the sign-up is not finished; the message says what was sent.
            if (err instanceof ApiError && err.status === 403) {
              const { signup } = err;
              if (signup) session.setSignUpToken(signup.token);
              const next = signup
                ? signup.step === 'verify_email'
                  ? routes.auth.verifyEmail
                  : routes.auth.activation
                : null;
              setUnfinished({ message: err.message, next });
            } else {
              form.setErrors(serverFieldErrors(err));
              notifyError(errorMessage(err), t('auth.error'));
            }
          },
        },
      );
    },
    // A refused field is said under the field, which gets the focus; nothing is cleared.
    (errors) => {
      if (errors.identifier) identifierRef.current?.focus();
    },
  );

  return (
    <>
      <AuthTitle title={t('auth.login.title')}>{t('auth.login.subtitle')}</AuthTitle>
      {deleted ? (
        <Alert color="green" mb="md" data-testid="account-deleted">
          {t('auth.login.accountDeleted')}
        </Alert>
      ) : null}
      {expired && !unfinished ? (
        <Alert color="blue" mb="md" data-testid="session-expired">
          {t('auth.login.sessionEnded')}
        </Alert>
      ) : null}
      {unfinished ? (
        <Alert color="yellow" mb="md" title={t('auth.login.unfinished')}>
          {unfinished.message}
          {unfinished.next ? (
            <Button component={Link} to={unfinished.next} size="xs" mt="sm" display="flex">
              {t('auth.login.enterCode')}
            </Button>
          ) : null}
        </Alert>
      ) : null}
      <form onSubmit={submit} {...formProps}>
        <Stack>
          <TextInput
            ref={identifierRef}
            label={t('auth.fields.emailOrPhone')}
            type="text"
            autoComplete="username"
            required
            description={understood ? t('auth.phone.understood', { number: understood }) : undefined}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            {...form.getInputProps('identifier')}
          />
          {asPhone && rules ? (
            <NativeSelect
              label={t('auth.phone.readAs')}
              data={rules.countryOptions(i18n.language)}
              value={shownCountry ?? ''}
              onChange={(e) => setCountry(e.currentTarget.value)}
              size="sm"
            />
          ) : null}
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
        <Text size="sm">
          {t('auth.login.officer')}{' '}
          <Anchor component={Link} to={routes.auth.officerSignup}>
            {t('auth.login.officerSignup')}
          </Anchor>
        </Text>
      </Stack>
    </>
  );
}
