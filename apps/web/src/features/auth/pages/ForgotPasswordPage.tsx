import { lazy, Suspense, useState } from 'react';
import { Button, Loader, SegmentedControl, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useForgotPassword } from '../../../api/auth.ts';
import { AuthLinks } from '../components/AuthLinks.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { serverFieldErrors } from '../../../lib/forms.ts';
import { useLazyContractForm } from '../../../lib/contract-form.ts';

/** The SMS way brings the phone input and the contract's rules: loaded only when chosen (decision 0016). */
const PhoneReset = lazy(() => import('../components/PhoneReset.tsx'));

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [way, setWay] = useState<'email' | 'phone'>('email');
  // forgotPasswordBody, loaded on the first touch (zod stays off this page's bytes: decision 0016). An empty
  // box is no email: "Email is required".
  const { form, onSubmit, formProps } = useLazyContractForm((contract) => contract.forgotPasswordBody, {
    initialValues: { email: '' },
    prepare: ({ email }) => ({ email: email.trim() || undefined }),
  });
  const forgot = useForgotPassword();

  const submit = onSubmit(({ email }) =>
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
      <AuthTitle title={t('auth.forgot.title')}>
        {t(way === 'phone' ? 'auth.forgot.phoneSubtitle' : 'auth.forgot.subtitle')}
      </AuthTitle>
      <SegmentedControl
        fullWidth
        mb="md"
        value={way}
        onChange={(value) => setWay(value as 'email' | 'phone')}
        data={[
          { value: 'email', label: t('auth.forgot.byEmail') },
          { value: 'phone', label: t('auth.forgot.byPhone') },
        ]}
      />
      {way === 'phone' ? (
        <Suspense fallback={<Loader size="sm" />}>
          <PhoneReset />
        </Suspense>
      ) : (
        <form onSubmit={submit} {...formProps}>
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
      )}
      <AuthLinks links={['signup', 'login', 'terms', 'contactUs']} />
    </>
  );
}
