/**
 * The contract's schemas that useLazyContractForm loads (lib/contract-form.ts): the forms of screens whose
 * first bytes stay without zod. Named one by one: a dynamic import of the whole contract would keep
 * every schema in its chunk.
 */
export {
  addEmailBody,
  confirmEmailBody,
  expertRegisterBody,
  farmerRegisterBody,
  forgotPasswordBody,
  loginBody,
  officerRegisterBody,
} from '@kutu/contract';
