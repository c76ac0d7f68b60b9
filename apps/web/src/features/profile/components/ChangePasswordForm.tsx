import { useState, type FormEvent } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NewPasswordFields } from '../../../components/PasswordStrength/NewPasswordFields.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { newPasswordProblem } from '../../auth/forms.ts';
import { useChangePassword } from '../api/profile.ts';
import { PasswordField } from '../../../components/PasswordStrength/PasswordField.tsx';

type Errors = { old?: string; password?: string; confirm?: string };

/** Change Password: the same rules and messages as activation and reset. */
export function ChangePasswordForm({ userInputs }: { userInputs?: string[] }) {
  const { t } = useTranslation();
  const [old, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const change = useChangePassword();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!old) return setErrors({ old: 'Enter your current password' });
    const problem = newPasswordProblem(password, confirm);
    if (problem) {
      // Spec point 5: a refused new password clears both fields.
      setPassword('');
      setConfirm('');
      setErrors({ [problem.field]: problem.message });
      return;
    }
    setErrors({});
    change.mutate(
      { oldPassword: old, newPassword: password, confirmPassword: confirm },
      {
        onSuccess: (reply) => {
          notifySuccess(reply?.message ?? t('profile.password.submit'));
          setOld('');
          setPassword('');
          setConfirm('');
        },
        onError: (err) => {
          if (err instanceof ApiError) {
            const f = err.fields;
            setErrors({ old: f.oldPassword, password: f.newPassword, confirm: f.confirmPassword });
          }
          notifyError(errorMessage(err));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={480}>
        <PasswordField
          label={t('profile.password.old')}
          autoComplete="current-password"
          value={old}
          onChange={(e) => {
            setOld(e.currentTarget.value);
            setErrors((x) => ({ ...x, old: undefined }));
          }}
          error={errors.old}
          required
        />
        <NewPasswordFields
          password={password}
          confirm={confirm}
          onPassword={(v) => {
            setPassword(v);
            setErrors((x) => ({ ...x, password: undefined }));
          }}
          onConfirm={(v) => {
            setConfirm(v);
            setErrors((x) => ({ ...x, confirm: undefined }));
          }}
          passwordError={errors.password}
          confirmError={errors.confirm}
          passwordLabel={t('profile.password.new')}
          confirmLabel={t('profile.password.confirm')}
          userInputs={userInputs}
        />
        <Group>
          <Button type="submit" loading={change.isPending}>
            {t('profile.password.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
