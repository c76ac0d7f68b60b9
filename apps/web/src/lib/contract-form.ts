import { useMemo } from 'react';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import type { z } from 'zod';
import { translateErrors } from './validation.ts';

/**
 * A form checked with the contract's schema (packages/contract): exactly what the server checks, each
 * field showing its first message as the server does (an empty code reads "Type in the OTP", not the
 * later "The code has 4 digits"), in the language on screen (lib/validation.ts).
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
  const resolve = useMemo(() => zod4Resolver(schema, { errorPriority: 'first' }), [schema]);
  return useForm<V>({
    mode: 'controlled',
    initialValues,
    validate: (values) => translateErrors(resolve((prepare ? prepare(values) : values) as Record<string, unknown>)),
  });
}
