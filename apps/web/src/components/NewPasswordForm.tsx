import type { ReactNode } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import type { FormErrors, UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { NewPasswordFields } from './PasswordStrength/NewPasswordFields.tsx';
import { useContractForm } from '../lib/contract-form.ts';

type Values = Record<string, string>;
export type NewPasswordFormApi<V extends Values> = UseFormReturnType<V>;

export interface NewPasswordFormProps<V extends Values> {
  /** The contract's body schema: the form checks exactly what the server will. */
  schema: z.ZodType;
  initialValues: V;
  /** The schema's names of the new password and of its confirmation. */
  password: keyof V & string;
  confirm: keyof V & string;
  /** Spec point 5 (reset and change): a refused new password clears both fields. */
  clearRefused?: boolean;
  /** Called with the checked values; the form is there to map the server's field errors back. */
  onSubmit: (values: V, form: NewPasswordFormApi<V>) => void;
  /** Errors the page shows elsewhere (a missing emailed token is not a field). */
  onInvalid?: (errors: FormErrors) => void;
  /** Fields above the new password: the emailed code, the current password. */
  before?: (form: NewPasswordFormApi<V>) => ReactNode;
  passwordLabel?: string;
  confirmLabel?: string;
  userInputs?: string[];
  submitLabel: string;
  loading: boolean;
  /** Full width on the auth card; a left-aligned button and narrower column on the profile page. */
  compact?: boolean;
}

/** Activation, password reset and change password: one form, the contract's rules and messages. */
export function NewPasswordForm<V extends Values>(props: NewPasswordFormProps<V>) {
  const { password, confirm } = props;
  const form = useContractForm<V>(props.schema, { initialValues: props.initialValues });

  const invalid = (errors: FormErrors) => {
    if (props.clearRefused && (errors[password] || errors[confirm])) {
      form.setValues({ [password]: '', [confirm]: '' } as Partial<V>);
      form.setErrors(errors);
    }
    props.onInvalid?.(errors);
  };

  const button = (
    <Button type="submit" loading={props.loading} fullWidth={!props.compact}>
      {props.submitLabel}
    </Button>
  );
  return (
    <form onSubmit={form.onSubmit((values) => props.onSubmit(values, form), invalid)} noValidate>
      <Stack maw={props.compact ? 480 : undefined}>
        {props.before?.(form)}
        <NewPasswordFields
          password={form.values[password] ?? ''}
          confirm={form.values[confirm] ?? ''}
          onPassword={form.getInputProps(password).onChange}
          onConfirm={form.getInputProps(confirm).onChange}
          passwordError={form.errors[password] as string | undefined}
          confirmError={form.errors[confirm] as string | undefined}
          passwordLabel={props.passwordLabel}
          confirmLabel={props.confirmLabel}
          userInputs={props.userInputs}
        />
        {props.compact ? <Group>{button}</Group> : button}
      </Stack>
    </form>
  );
}
