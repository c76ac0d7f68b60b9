import { zod4Resolver } from 'mantine-form-zod-resolver';
import type { z } from 'zod';
import { translateErrors } from './validation.ts';

/**
 * The contract's schema as a form validator, showing a field's first message as the server does
 * (an empty code reads "Type in the OTP", not the later "The code has 4 digits").
 */
export function contractResolver(schema: z.ZodType) {
  const resolve = zod4Resolver(schema, { errorPriority: 'first' });
  // The messages in the language on screen (lib/validation.ts).
  return (values: Record<string, unknown>) => translateErrors(resolve(values));
}
