import { Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useForgotPassword } from '../api/auth.ts';
import { AuthLinks } from '../components/AuthLinks.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { isEmail, serverFieldErrors } from '../forms.ts';

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  // forgotPasswordBody's rule without zod, as on sign-in (decision 0016); an empty box says so.
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '' },
    validate: {
      email: (value) =>
        isEmail(value) ? null : value.trim() ? t('auth.login.wrongEmail') : t('auth.fields.emailRequired'),
    },
  });
  const forgot = useForgotPassword();

  const submit = form.onSubmit(({ email }) =>
    forgot.mutate(
      { email: email.trim() },
      {
        onSuccess: (reply) => {
          notifySuccess(reply.message, t('auth.success'));
          form.reset();
        },
        onError: (err) => {
          form.setErrors(serverFieldErrors(err));
          notifyError(errorMessage(err), t('auth.error'));
        },
      },
    ),
  );

  return (
    <>
      <AuthTitle title={t('auth.forgot.title')}>{t('auth.forgot.subtitle')}</AuthTitle>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
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
