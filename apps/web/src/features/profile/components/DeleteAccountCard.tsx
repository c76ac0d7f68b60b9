import { useState } from 'react';
import { Button, Card, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { deleteAccountBody } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { useDeleteAccount, useSendDeleteCode } from '../../../api/privacy.ts';
import { PasswordField } from '../../../components/PasswordStrength/PasswordField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useContractForm } from '../../../lib/contract-form.ts';
import { serverFieldErrors } from '../../../lib/forms.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';

/**
 * Deleting the account, confirmed in a dialog by the password, or, for an account without one (signed
 * up on a basic phone or at a clinic), by a code Kutu sends by SMS. Each account is offered only the way
 * the server takes: a signed-in session with a code must not erase an account that has a password.
 * Then this device signs out.
 */
export function DeleteAccountCard({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const erase = useDeleteAccount();
  const sendCode = useSendDeleteCode();
  const form = useContractForm<{ password: string; code: string }>(deleteAccountBody, {
    initialValues: { password: '', code: '' },
    prepare: (v) => (hasPassword ? { password: v.password } : { code: v.code }),
  });
  const submit = form.onSubmit((values) =>
    erase.mutate(hasPassword ? { password: values.password } : { code: values.code }, {
      // Signed out (the hook), this screen's guard opens sign-in, which says the account is deleted.
      onSuccess: () => navigate(routes.auth.login, { replace: true }),
      onError: (err) => {
        form.setErrors(serverFieldErrors(err));
        notifyError(errorMessage(err));
      },
    }),
  );
  const askCode = () =>
    sendCode.mutate(undefined, {
      onSuccess: () => notifySuccess(t('profile.privacy.codeSent')),
      onError: (err) => notifyError(errorMessage(err)),
    });

  return (
    <Card withBorder padding="md" maw={560}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('profile.privacy.deleteTitle')}
        </Title>
        <Text size="sm">{t('profile.privacy.deleteText')}</Text>
        <Button color="red" variant="outline" onClick={() => setOpen(true)}>
          {t('profile.privacy.deleteButton')}
        </Button>
      </Stack>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('profile.privacy.confirmTitle')} centered>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('profile.privacy.deleteText')}</Text>
            {hasPassword ? (
              <PasswordField
                label={t('profile.privacy.password')}
                autoComplete="current-password"
                required
                {...form.getInputProps('password')}
              />
            ) : null}
            {hasPassword ? (
              <Text size="sm">{t('profile.privacy.forgotText')}</Text>
            ) : (
              <>
                <Text size="sm">{t('profile.privacy.codeText')}</Text>
                <Button variant="light" onClick={askCode} loading={sendCode.isPending}>
                  {t('profile.privacy.sendCode')}
                </Button>
                <TextInput
                  label={t('profile.privacy.code')}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={4}
                  required
                  {...form.getInputProps('code')}
                />
              </>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setOpen(false)}>
                {t('profile.privacy.cancel')}
              </Button>
              <Button type="submit" color="red" loading={erase.isPending}>
                {t('profile.privacy.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
}
