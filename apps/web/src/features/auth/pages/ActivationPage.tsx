import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { activateBody } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { translateMessage } from '../../../lib/validation.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import { useActivate, useResendOtp } from '../../../api/auth.ts';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { CodeInput } from '../../../components/CodeInput.tsx';
import { serverFieldErrors, signUpIdentifier } from '../../../lib/forms.ts';
import { useContractForm } from '../../../lib/contract-form.ts';

export const TOKEN_MISSING = 'Base64 token was not saved, check your email to retrieve it or contact support';

/**
 * The SMS code, nothing more: the password was chosen and confirmed at sign-up (docs/decisions/0041).
 */
export default function ActivationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') || session.signUpToken();
  const activate = useActivate();
  const resend = useResendOtp();
  const form = useContractForm(activateBody, { initialValues: { otp: '', token: token ?? '' } });

  const resendCode = () => {
    if (!token) return notifyError(translateMessage(TOKEN_MISSING), t('auth.error'));
    resend.mutate(
      { actionType: 'PHONE_ACTIVATION', token },
      {
        onSuccess: (reply) => notifySuccess(reply.message, t('auth.success')),
        onError: (err) => notifyError(errorMessage(err), t('auth.error')),
      },
    );
  };

  const onSubmit = form.onSubmit(
    (values) =>
      activate.mutate(values, {
        onSuccess: (reply) => {
          session.setSignUpToken(null);
          notifySuccess(reply.message, t('auth.success'));
          // Sign-in opens with the account's email or phone filled in, not typed again: the server
          // names it, so this works from the emailed link in another tab too.
          const identifier = reply.identifier || signUpIdentifier();
          navigate(
            identifier ? `${routes.auth.login}?identifier=${encodeURIComponent(identifier)}` : routes.auth.login,
          );
        },
        onError: (err) => {
          form.setErrors(serverFieldErrors(err));
          notifyError(errorMessage(err), t('auth.error'));
        },
      }),
    (errors) => errors.token && notifyError(translateMessage(TOKEN_MISSING), t('auth.error')),
  );

  return (
    <>
      <AuthTitle title={t('auth.activation.title')}>{t('auth.activation.subtitle')}</AuthTitle>
      {!token ? (
        // A fresh browser (no link followed, no sign-in): where the code can be typed from.
        <Alert color="yellow" mb="md" data-testid="activation-no-token">
          {t('auth.activation.noTokenHelp')}
          <Button component={Link} to={routes.auth.login} size="xs" mt="sm" display="flex">
            {t('auth.links.signIn')}
          </Button>
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            <CodeInput
              label={t('auth.activation.code')}
              value={form.values.otp}
              onChange={(v) => form.setFieldValue('otp', v)}
              error={form.errors.otp as string | undefined}
              autoFocus
            />
            <Group justify="flex-end" mt={-8}>
              <Button variant="subtle" size="compact-sm" onClick={resendCode} loading={resend.isPending}>
                {t('auth.activation.resend')}
              </Button>
            </Group>
            <Button type="submit" loading={activate.isPending} fullWidth>
              {t('auth.activation.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <Group justify="center" mt="lg">
        <Anchor component={Link} to={routes.auth.login} size="sm">
          {t('auth.links.signIn')}
        </Anchor>
      </Group>
    </>
  );
}
