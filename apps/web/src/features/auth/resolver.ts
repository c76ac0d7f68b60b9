import { zod4Resolver } from 'mantine-form-zod-resolver';
import type { z } from 'zod';

/**
 * The contract's schema as a form validator, showing a field's first message as the server does
 * (an empty code reads "Type in the OTP", not the later "The code has 4 digits").
 */
export const contractResolver = (schema: z.ZodType) => zod4Resolver(schema, { errorPriority: 'first' });
