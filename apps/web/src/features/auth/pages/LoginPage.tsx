import { useEffect, useRef, useState } from 'react';
import { routes } from '../../../config/routes.ts';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { session } from '../../../lib/session.ts';
import { useLogin } from '../../../api/auth.ts';
import { isEmail, looksLikePhone, safeReturnTo, serverFieldErrors } from '../../../lib/forms.ts';
import { useLazyContractForm } from '../../../lib/contract-form.ts';
import { currentLanguage, useStrings } from '../../../lib/language.ts';
import { useNavigation } from '../../../lib/navigation.ts';
import { AuthFrame } from '../../../components/AuthFrame/AuthFrame.tsx';
import { LinkTo, Notice, PasswordField, SelectField, SubmitButton, TextField } from '../components/SignInFields.tsx';
import classes from './LoginPage.module.css';

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

/**
 * The sign-in screen, in its frame. Plain React, the language module's strings and @mantine/form, no
 * Mantine components, React Router or i18next: src/main.tsx shows it before the full app is downloaded,
 * and the router shows the same component at the same address (decision 0016's sign-in budget).
 */
export default function LoginPage() {
  const { t } = useStrings();
  const { go, search } = useNavigation();
  const [params] = useState(() => new URLSearchParams(search));
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
  /** Any other refusal (wrong password, no signal), said on the page until the next try. */
  const [failed, setFailed] = useState<string | null>(null);
  const [rules, setRules] = useState<PhoneRules | null>(null);
  const [country, setCountry] = useState<string | null>(null);
  const identifierRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
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

  /** A refused field is said under it and gets the focus; nothing typed is cleared. */
  const focusFirst = (errors: Record<string, unknown>) => {
    if (errors.identifier) identifierRef.current?.focus();
    else if (errors.password) passwordRef.current?.focus();
  };

  const submit = onSubmit(async ({ identifier, password }) => {
    setUnfinished(null);
    setFailed(null);
    let sent = identifier.trim();
    if (looksLikePhone(identifier)) {
      const loaded = await loadPhoneRules();
      const read = loaded.analysePhone(identifier, loaded.availableCountry(country) ?? loaded.regionCountry());
      if (!read.valid) {
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
            const fields = serverFieldErrors(err);
            form.setErrors(fields);
            focusFirst(fields);
            setFailed(errorMessage(err));
          }
        },
      },
    );
  }, focusFirst);

  const password = form.getInputProps('password');
  const identifier = form.getInputProps('identifier');
  return (
    <AuthFrame>
      <div className={classes.title}>
        <h1>{t('auth.login.title')}</h1>
        <p>{t('auth.login.subtitle')}</p>
      </div>
      {deleted ? (
        <Notice tone="green" testId="account-deleted">
          {t('auth.login.accountDeleted')}
        </Notice>
      ) : null}
      {expired && !unfinished ? (
        <Notice tone="blue" testId="session-expired">
          {t('auth.login.sessionEnded')}
        </Notice>
      ) : null}
      {unfinished ? (
        <Notice tone="yellow" title={t('auth.login.unfinished')}>
          {unfinished.message}
          {unfinished.next ? (
            <LinkTo href={unfinished.next} go={go} button>
              {t('auth.login.enterCode')}
            </LinkTo>
          ) : null}
        </Notice>
      ) : null}
      {failed ? (
        <Notice tone="red" title={t('auth.error')} testId="sign-in-error">
          {failed}
        </Notice>
      ) : null}
      <form onSubmit={submit} className={classes.form} {...formProps}>
        <TextField
          ref={identifierRef}
          label={t('auth.fields.emailOrPhone')}
          type="text"
          autoComplete="username"
          required
          description={understood ? t('auth.phone.understood', { number: understood }) : undefined}
          value={identifier.value as string}
          onChange={identifier.onChange}
          onFocus={identifier.onFocus}
          onBlur={identifier.onBlur}
          error={identifier.error}
        />
        {asPhone && rules ? (
          <SelectField
            label={t('auth.phone.readAs')}
            options={rules.countryOptions(currentLanguage(), t)}
            value={shownCountry ?? ''}
            onChange={setCountry}
          />
        ) : null}
        <PasswordField
          ref={passwordRef}
          label={t('auth.fields.password')}
          showLabel={t('auth.fields.showPassword')}
          hideLabel={t('auth.fields.hidePassword')}
          autoComplete="current-password"
          required
          value={password.value as string}
          onChange={password.onChange}
          onFocus={password.onFocus}
          onBlur={password.onBlur}
          error={password.error}
        />
        <div className={classes.forgot}>
          <LinkTo href={routes.auth.forgotPassword} go={go}>
            {t('auth.links.forgotPassword')}
          </LinkTo>
        </div>
        <SubmitButton loading={login.isPending}>{t('auth.login.submit')}</SubmitButton>
      </form>
      <div className={classes.signUp}>
        <p>
          {t('auth.login.noAccount')}{' '}
          <LinkTo href={routes.auth.signup} go={go}>
            {t('auth.login.farmerSignup')}
          </LinkTo>
        </p>
        <p>
          {t('auth.login.expert')}{' '}
          <LinkTo href={routes.auth.expertSignup} go={go}>
            {t('auth.login.expertSignup')}
          </LinkTo>
        </p>
        <p>
          {t('auth.login.officer')}{' '}
          <LinkTo href={routes.auth.officerSignup} go={go}>
            {t('auth.login.officerSignup')}
          </LinkTo>
        </p>
      </div>
    </AuthFrame>
  );
}
