import { useTranslation } from 'react-i18next';
import { changePasswordBody } from '@kutu/contract';
import { PasswordField } from '../../../components/PasswordStrength/PasswordField.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { NewPasswordForm } from '../../../components/NewPasswordForm.tsx';
import { serverFieldErrors } from '../../../lib/forms.ts';
import { useChangePassword } from '../../../api/profile.ts';

/** Change Password: the same form, rules and messages as activation and reset. */
export function ChangePasswordForm({ userInputs }: { userInputs?: string[] }) {
  const { t } = useTranslation();
  const change = useChangePassword();

  return (
    <NewPasswordForm
      schema={changePasswordBody}
      initialValues={{ oldPassword: '', newPassword: '', confirmPassword: '' }}
      password="newPassword"
      confirm="confirmPassword"
      clearRefused
      compact
      passwordLabel={t('profile.password.new')}
      confirmLabel={t('profile.password.confirm')}
      userInputs={userInputs}
      submitLabel={t('profile.password.submit')}
      loading={change.isPending}
      before={(form) => (
        <PasswordField
          label={t('profile.password.old')}
          autoComplete="current-password"
          required
          {...form.getInputProps('oldPassword')}
        />
      )}
      onSubmit={(values, form) =>
        change.mutate(values, {
          onSuccess: (reply) => {
            notifySuccess(reply?.message ?? t('profile.password.submit'));
            form.reset();
          },
          onError: (err) => {
            form.setErrors(serverFieldErrors(err));
            notifyError(errorMessage(err));
          },
        })
      }
    />
  );
}
