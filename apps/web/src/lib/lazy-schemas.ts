/**
 * The contract's schemas that useLazyContractForm loads (lib/contract-form.ts): the forms of screens whose
 * first bytes stay without zod (sign-in, forgot password, adding an email, the upload screen's new field).
 * Named one by one: a dynamic import of the whole contract would keep every schema in its chunk.
 */
export { addEmailBody, confirmEmailBody, fieldInput, forgotPasswordBody, loginBody } from '@kutu/contract';
