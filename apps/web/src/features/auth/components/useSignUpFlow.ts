import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { routes } from '../../../config/routes.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { session } from '../../../lib/session.ts';
import type { TokenReply } from '../../../api/auth.ts';
import { rememberCountry } from '../../../components/PhoneInput/phone.ts';
import { rememberSignUpIdentifier, serverFieldErrors } from '../../../lib/forms.ts';
import { type Contract, useLazyContractForm } from '../../../lib/contract-form.ts';

interface SendHandlers {
  onSuccess: (reply: TokenReply) => void;
  onError: (err: unknown) => void;
}

interface SignUpFormOptions<V extends Record<string, unknown>, S extends z.ZodType> {
  /**
   * The contract's register body: the form checks what the server checks, with its messages. Picked from
   * the schemas loaded on the form's first touch (zod stays out of the screen's first bytes, decision 0092).
   */
  schema: (contract: Contract) => S;
  initialValues: V;
  /** What the schema should see of the inputs (an empty number box is "no number", not 0). */
  prepare?: (values: V) => unknown;
  /** The body as the schema gives it; as prepared where the schemas did not load (the server checks it). */
  send: (body: z.output<S>, handlers: SendHandlers) => void;
}

/**
 * Both sign-up forms: each field declared once in the form, checked with the contract schema; a
 * refused submit says so in a toast, the server's field errors land under their fields, and success
 * keeps the sign-up token and opens Verify Email, where the emailed code is typed, or, for a farmer
 * who gave no email, Activation, where the SMS code is typed.
 */
export function useSignUpForm<V extends Record<string, unknown>, S extends z.ZodType>(
  options: SignUpFormOptions<V, S>,
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const prepare = options.prepare ?? ((values: V) => values);
  const {
    form,
    onSubmit: onValid,
    formProps,
    loadedSchema,
  } = useLazyContractForm<V>(options.schema, {
    initialValues: options.initialValues,
    prepare,
  });

  const handlers = (withEmail: boolean, identifier: string): SendHandlers => ({
    onSuccess: (reply) => {
      session.setSignUpToken(reply.token);
      // Sign-in after activation opens with this email or phone filled in, not typed again.
      rememberSignUpIdentifier(identifier);
      notifySuccess(reply.message, t('auth.success'));
      const next = withEmail ? routes.auth.verifyEmail : routes.auth.activation;
      navigate(`${next}?token=${encodeURIComponent(reply.token)}`);
    },
    onError: (err) => {
      form.setErrors(serverFieldErrors(err));
      notifyError(errorMessage(err), t('auth.error'));
    },
  });
  const onSubmit: (event?: FormEvent<HTMLFormElement>) => void = onValid(
    (values) => {
      const schema = loadedSchema();
      const body = (schema ? schema.parse(prepare(values)) : prepare(values)) as z.output<S>;
      const { email, phone_number: phone } = body as { email?: string; phone_number?: string };
      if (phone) rememberCountry(phone);
      options.send(body, handlers(Boolean(email), email || phone || ''));
    },
    () => notifyError(t('auth.signup.fixFields'), t('auth.error')),
  );
  return { form, onSubmit, formProps };
}
