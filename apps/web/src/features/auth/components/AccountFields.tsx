import { TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { PhoneInput } from '../../../components/PhoneInput/PhoneInput.tsx';
import { PasswordField } from '../../../components/PasswordStrength/PasswordField.tsx';
import { PasswordStrength } from '../../../components/PasswordStrength/PasswordStrength.tsx';

type AccountField = 'email' | 'username' | 'password' | 'confirm_password' | 'phone_number';

export interface AccountFieldsProps {
  /** The sign-up form's `getInputProps`. */
  input: (field: AccountField) => GetInputPropsReturnType;
  values: { email: string; username: string; password: string };
  /** A farmer may sign up with a phone number only (docs/decisions/0024). */
  emailOptional?: boolean;
}

/** Email, username, password (with its strength meter) and phone: the top of both sign-up forms. */
export function AccountFields({ input, values, emailOptional = false }: AccountFieldsProps) {
  const { t } = useTranslation();
  const phone = input('phone_number');
  return (
    <>
      <TextInput
        label={t(emailOptional ? 'auth.fields.emailOptional' : 'auth.fields.email')}
        type="email"
        autoComplete="email"
        required={!emailOptional}
        {...input('email')}
      />
      <TextInput label={t('auth.fields.username')} autoComplete="username" required {...input('username')} />
      <PasswordField label={t('auth.fields.password')} autoComplete="new-password" required {...input('password')} />
      <PasswordStrength password={values.password} userInputs={[values.email, values.username]} />
      {/* Asked once, here: activation only takes the SMS code (docs/decisions/0041). */}
      <PasswordField
        label={t('auth.fields.confirmPassword')}
        autoComplete="new-password"
        required
        {...input('confirm_password')}
      />
      <PhoneInput value={phone.value} onChange={phone.onChange} error={phone.error} required />
    </>
  );
}
