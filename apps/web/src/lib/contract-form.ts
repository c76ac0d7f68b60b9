import { type FormEvent, useRef } from 'react';
import { useForm, type UseFormReturnType } from '@mantine/form';
import type { z } from 'zod';
import { translateErrors } from './validation.ts';

/**
 * What the schema finds wrong in `body`: each field's first message, as the server answers (an empty
 * code reads "Type in the OTP", not the later "The code has 4 digits"), in the language on screen
 * (lib/validation.ts). The schema's own method: no zod import here, so the lazy form below adds none.
 */
function firstErrors(schema: z.ZodType, body: unknown): Record<string, string> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return translateErrors(errors);
}

/**
 * A form checked with the contract's schema (packages/contract): exactly what the server checks, each
 * field showing its first message as the server does, in the language on screen.
 *
 * `prepare` turns the form's values into the body the schema reads, where the two differ (numbers
 * typed as text, a field the page fills in). A form whose schema changes (one step to the next) gets
 * the new rules at once.
 */
export function useContractForm<V extends Record<string, unknown>>(
  schema: z.ZodType,
  options: { initialValues: V; prepare?: (values: V) => unknown },
): UseFormReturnType<V> {
  const { initialValues, prepare } = options;
  return useForm<V>({
    mode: 'controlled',
    initialValues,
    validate: (values) => firstErrors(schema, prepare ? prepare(values) : values),
  });
}

export type Contract = typeof import('./lazy-schemas.ts');
let contract: Promise<Contract> | undefined;
/** The schemas with zod, in a chunk of their own (the account's first screens keep it for offline use). */
const loadContract = () => {
  contract ??= import('./lazy-schemas.ts').catch((err: unknown) => {
    contract = undefined; // tried again on the next submit
    throw err;
  });
  return contract;
};

/**
 * useContractForm for a screen whose first bytes must stay without zod (sign-in, sign-up, forgot password,
 * the profile's add-email card: decisions 0016 and 0092). The schemas load when the form is first touched (a focus in
 * it) or submitted; a submit waits for them, then checks as useContractForm does. Spread `formProps` on
 * the <form>. `schema` picks the schema from the contract (it may follow the form's step); `check` adds
 * rules of the screen itself, shown where the schema has nothing to say. Should the schemas not load
 * (offline, never cached), the form is sent as it is and the server's field errors show instead.
 */
export function useLazyContractForm<V extends Record<string, unknown>>(
  schema: (contract: Contract) => z.ZodType,
  options: {
    initialValues: V;
    prepare?: (values: V) => unknown;
    check?: (values: V) => Record<string, string | null>;
  },
) {
  const { initialValues, prepare, check } = options;
  const loaded = useRef<Contract | null>(null);
  const waiting = useRef(false);
  const form = useForm<V>({
    mode: 'controlled',
    initialValues,
    validate: (values) => {
      const own = Object.fromEntries(Object.entries(check?.(values) ?? {}).filter(([, message]) => message));
      const contractErrors = loaded.current
        ? firstErrors(schema(loaded.current), prepare ? prepare(values) : values)
        : {};
      return { ...own, ...contractErrors };
    },
  });
  const load = async () => {
    try {
      loaded.current ??= await loadContract();
    } catch {
      // Not loaded: the server checks the body and answers with the same messages.
    }
  };
  const onSubmit = (...args: Parameters<typeof form.onSubmit>) => {
    const submit = form.onSubmit(...args);
    return (event?: FormEvent<HTMLFormElement>) => {
      event?.preventDefault();
      if (waiting.current) return;
      waiting.current = true;
      void load().then(() => {
        waiting.current = false;
        submit();
      });
    };
  };
  /** The schema once loaded (a submit waits for it), else null: the body then goes as it is. */
  const loadedSchema = () => (loaded.current ? schema(loaded.current) : null);
  return { form, onSubmit, formProps: { noValidate: true, onFocus: () => void load() }, loadedSchema };
}
