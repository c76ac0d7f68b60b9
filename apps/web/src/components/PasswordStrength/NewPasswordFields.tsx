import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PasswordStrength } from './PasswordStrength.tsx';
import { PasswordField } from './PasswordField.tsx';

export interface NewPasswordFieldsProps {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  passwordError?: string | null;
  confirmError?: string | null;
  passwordLabel?: string;
  confirmLabel?: string;
  /** Email, username: the meter counts passwords built from them as guessable. */
  userInputs?: string[];
}

/** A new password, its confirmation and the strength bar and meter under it. */
export function NewPasswordFields(props: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <PasswordField
        label={props.passwordLabel ?? t('auth.fields.password')}
        autoComplete="new-password"
        value={props.password}
        onChange={(e) => props.onPassword(e.currentTarget.value)}
        error={props.passwordError}
        required
      />
      <PasswordStrength password={props.password} userInputs={props.userInputs} />
      <PasswordField
        label={props.confirmLabel ?? t('auth.fields.confirmPassword')}
        autoComplete="new-password"
        value={props.confirm}
        onChange={(e) => props.onConfirm(e.currentTarget.value)}
        error={props.confirmError}
        required
      />
    </Stack>
  );
}
