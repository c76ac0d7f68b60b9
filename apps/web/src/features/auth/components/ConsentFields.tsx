import { Checkbox, Fieldset, Stack, Text } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';

type ConsentField = 'consent.service' | 'consent.sms' | 'consent.training';
type SignUpRole = 'farmer' | 'expert' | 'officer';

/** What each role agrees to keep: the service's words name what that role's account holds. */
const SERVICE_TEXT: Record<SignUpRole, string> = {
  farmer: 'auth.signup.consent.service',
  expert: 'auth.signup.consent.serviceExpert',
  officer: 'auth.signup.consent.serviceOfficer',
};

/**
 * The consents of a sign-up, each its own box (none ticked for the person), those that apply to the
 * role: the service (the contract requires it), SMS, and for a farmer their photos training the model
 * (an expert or an officer sends no photos of theirs). Stored with the text version agreed to.
 */
export function ConsentFields({
  role,
  input,
}: {
  role: SignUpRole;
  input: (field: ConsentField) => GetInputPropsReturnType;
}) {
  const { t } = useTranslation();
  return (
    <Fieldset legend={t('auth.signup.consent.title')} variant="unstyled">
      <Stack gap="xs">
        <Checkbox label={t(SERVICE_TEXT[role])} required {...input('consent.service')} />
        <Checkbox
          label={t(role === 'officer' ? 'auth.signup.consent.smsOfficer' : 'auth.signup.consent.sms')}
          {...input('consent.sms')}
        />
        {role === 'farmer' && <Checkbox label={t('auth.signup.consent.training')} {...input('consent.training')} />}
        <Text size="xs" c="dimmed">
          {t(role === 'farmer' ? 'auth.signup.consent.hint' : 'auth.signup.consent.hintStaff')}
        </Text>
      </Stack>
    </Fieldset>
  );
}
