import { Checkbox, Fieldset, Stack, Text } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';

type ConsentField = 'consent.service' | 'consent.sms' | 'consent.training';

/**
 * The three consents of a sign-up, each its own box (none ticked for the person): the service (the
 * contract requires it), SMS, and photos training the model. Stored with the text version agreed to.
 */
export function ConsentFields({ input }: { input: (field: ConsentField) => GetInputPropsReturnType }) {
  const { t } = useTranslation();
  return (
    <Fieldset legend={t('auth.signup.consent.title')} variant="unstyled">
      <Stack gap="xs">
        <Checkbox label={t('auth.signup.consent.service')} required {...input('consent.service')} />
        <Checkbox label={t('auth.signup.consent.sms')} {...input('consent.sms')} />
        <Checkbox label={t('auth.signup.consent.training')} {...input('consent.training')} />
        <Text size="xs" c="dimmed">
          {t('auth.signup.consent.hint')}
        </Text>
      </Stack>
    </Fieldset>
  );
}
