import { Alert } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { resetPasswordBody } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { translateMessage } from '../../../lib/validation.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useResetPassword } from '../../../api/auth.ts';
import { AuthLinks } from '../components/AuthLinks.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { NewPasswordForm } from '../../../components/NewPasswordForm.tsx';
import { serverFieldErrors } from '../../../lib/forms.ts';

export const INVALID_TOKEN = 'Invalid Token, check your email';

export default function ConfirmPasswordResetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const reset = useResetPassword();

  return (
    <>
      <AuthTitle title={t('auth.reset.title')}>{t('auth.reset.subtitle')}</AuthTitle>
      {!token ? (
        <Alert color="red" mb="md" title={translateMessage(INVALID_TOKEN)}>
          {t('auth.reset.noToken')}
        </Alert>
      ) : null}
      <NewPasswordForm
        schema={resetPasswordBody}
        initialValues={{ token: token ?? '', new_password: '', confirm_password: '' }}
        password="new_password"
        confirm="confirm_password"
        clearRefused
        passwordLabel={t('auth.fields.newPassword')}
        submitLabel={t('auth.submit')}
        loading={reset.isPending}
        onInvalid={(errors) => errors.token && notifyError(translateMessage(INVALID_TOKEN), t('auth.error'))}
        onSubmit={(values, form) =>
          reset.mutate(values, {
            onSuccess: (reply) => {
              notifySuccess(reply.message, t('auth.success'));
              navigate(routes.auth.login);
            },
            onError: (err) => {
              form.setErrors(serverFieldErrors(err));
              notifyError(errorMessage(err), t('auth.error'));
            },
          })
        }
      />
      <AuthLinks links={['signup', 'login', 'terms', 'contactUs']} />
    </>
  );
}
