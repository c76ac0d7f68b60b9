import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { forgotPasswordBody, resetPasswordByCodeBody } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { PhoneInput } from '../../../components/PhoneInput/PhoneInput.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useForgotPassword, useResetPasswordByCode } from '../../../api/auth.ts';
import { serverFieldErrors } from '../../../lib/forms.ts';
import { CodeInput } from '../../../components/CodeInput.tsx';
import { NewPasswordForm } from '../../../components/NewPasswordForm.tsx';
import { useContractForm } from '../../../lib/contract-form.ts';

/**
 * Forgot password by SMS (an account signed up by phone): the number asks for a code, then the code
 * and the new password go on the same screen. Loaded only when chosen, with the phone and zod code.
 */
export default function PhoneReset() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const forgot = useForgotPassword();
  const reset = useResetPasswordByCode();
  /** The number a code was sent to; the code form shows once it is set. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useContractForm(forgotPasswordBody, { initialValues: { phone: '' } });

  const sendCode = form.onSubmit(({ phone }) =>
    forgot.mutate(
      { phone },
      {
        onSuccess: (reply) => {
          notifySuccess(reply.message, t('auth.success'));
          setSentTo(phone);
        },
        onError: (err) => notifyError(errorMessage(err), t('auth.error')),
      },
    ),
  );

  if (!sentTo) {
    const phone = form.getInputProps('phone');
    return (
      <form onSubmit={sendCode} noValidate>
        <Stack>
          <PhoneInput value={phone.value} onChange={phone.onChange} error={phone.error} required />
          <Button type="submit" loading={forgot.isPending} fullWidth>
            {t('auth.forgot.sendCode')}
          </Button>
        </Stack>
      </form>
    );
  }
  return (
    <Stack>
      <NewPasswordForm
        schema={resetPasswordByCodeBody}
        initialValues={{ phone: sentTo, code: '', new_password: '', confirm_password: '' }}
        password="new_password"
        confirm="confirm_password"
        clearRefused
        passwordLabel={t('auth.fields.newPassword')}
        submitLabel={t('auth.forgot.resetSubmit')}
        loading={reset.isPending}
        before={(codeForm) => (
          <CodeInput
            label={t('auth.forgot.code')}
            value={codeForm.values.code}
            onChange={(v) => codeForm.setFieldValue('code', v)}
            error={codeForm.errors.code as string | undefined}
            autoFocus
          />
        )}
        onSubmit={(values, codeForm) =>
          reset.mutate(values, {
            onSuccess: (reply) => {
              notifySuccess(reply.message, t('auth.success'));
              navigate(routes.auth.login);
            },
            onError: (err) => {
              codeForm.setErrors(serverFieldErrors(err));
              notifyError(errorMessage(err), t('auth.error'));
            },
          })
        }
      />
      <Button variant="subtle" size="compact-sm" onClick={() => setSentTo(null)}>
        {t('auth.forgot.otherNumber')}
      </Button>
    </Stack>
  );
}
