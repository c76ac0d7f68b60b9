import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { CodeInput } from '../../../components/CodeInput.tsx';
import { serverFieldErrors } from '../../../lib/forms.ts';
import { useLazyContractForm } from '../../../lib/contract-form.ts';
import { useAddEmail, useConfirmEmail } from '../../../api/profile.ts';

/** A farmer who signed up by phone adds an email: a code goes to it, typed here to confirm it. */
export function AddEmailCard() {
  const { t } = useTranslation();
  const add = useAddEmail();
  const confirm = useConfirmEmail();
  /** The address the code went to; the code field shows once it is set. */
  const [sentTo, setSentTo] = useState<string | null>(null);
  // addEmailBody, then confirmEmailBody once the code is sent, loaded on the first touch: this card comes
  // with the profile page, whose bytes zod would push past the budget (decision 0016).
  const { form, onSubmit, formProps } = useLazyContractForm(
    (contract) => (sentTo === null ? contract.addEmailBody : contract.confirmEmailBody),
    {
      initialValues: { email: '', code: '' },
      prepare: ({ email, code }) => (sentTo === null ? { email } : { email: sentTo, code }),
    },
  );

  const submit = onSubmit(({ email, code }) => {
    const onError = (err: unknown) => {
      form.setErrors(serverFieldErrors(err));
      notifyError(errorMessage(err));
    };
    if (sentTo === null) {
      add.mutate(
        { email: email.trim() },
        {
          onSuccess: (reply) => {
            notifySuccess(reply.message);
            setSentTo(email.trim());
          },
          onError,
        },
      );
    } else {
      confirm.mutate({ email: sentTo, code }, { onSuccess: () => notifySuccess(t('profile.addEmail.done')), onError });
    }
  });

  return (
    <Paper withBorder p="md" mb="md" maw={560}>
      <form onSubmit={submit} {...formProps}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('profile.addEmail.title')}
          </Title>
          <Text size="sm">{t('profile.addEmail.text')}</Text>
          <TextInput
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            required
            disabled={sentTo !== null}
            {...form.getInputProps('email')}
          />
          {sentTo !== null ? (
            <CodeInput
              label={t('profile.addEmail.code')}
              value={form.values.code}
              onChange={(v) => form.setFieldValue('code', v)}
              error={form.errors.code as string | undefined}
              autoFocus
            />
          ) : null}
          <Group>
            <Button type="submit" loading={add.isPending || confirm.isPending}>
              {t(sentTo === null ? 'profile.addEmail.send' : 'profile.addEmail.confirm')}
            </Button>
            {sentTo !== null ? (
              <Button variant="subtle" onClick={() => setSentTo(null)}>
                {t('profile.addEmail.other')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
