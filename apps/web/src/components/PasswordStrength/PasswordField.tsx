import { useState } from 'react';
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A password input whose show/hide toggle is a real, keyboard-reachable button (Mantine takes it out of
 * the tab order by default) named for what it will do: "Show password" or "Hide password". The name
 * changes with the state, so `aria-pressed` is left off (a pressed "Hide password" would say it twice).
 */
export function PasswordField(props: Omit<PasswordInputProps, 'visible' | 'onVisibilityChange'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <PasswordInput
      {...props}
      visible={visible}
      onVisibilityChange={setVisible}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{
        'aria-label': visible ? t('auth.fields.hidePassword') : t('auth.fields.showPassword'),
        'aria-pressed': undefined,
      }}
    />
  );
}
