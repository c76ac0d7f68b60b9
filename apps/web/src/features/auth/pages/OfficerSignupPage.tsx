import { lazy } from 'react';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { useRegisterOfficer } from '../../../api/auth.ts';
import { AccountFields } from '../components/AccountFields.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { ConsentFields } from '../components/ConsentFields.tsx';
import { useSignUpForm } from '../components/useSignUpFlow.ts';
import { Deferred } from '../../../components/OnDemand.tsx';

const DistrictsSelect = lazy(() => import('../components/DistrictsSelect.tsx'));

const empty = {
  email: '',
  username: '',
  password: '',
  confirm_password: '',
  phone_number: '',
  office: '',
  /** District or county codes the officer answers for; an administrator checks them. */
  districts: [] as string[],
  consent: { service: false, sms: false },
};

/**
 * An extension officer applies: their account, their office and the districts (counties) they answer
 * for. An administrator approves or refuses, as for experts; until then the officer sees nothing.
 */
export default function OfficerSignupPage() {
  const { t } = useTranslation();
  const register = useRegisterOfficer();
  const { form, onSubmit, formProps } = useSignUpForm({
    schema: (contract) => contract.officerRegisterBody,
    initialValues: empty,
    prepare: (values) => ({ ...values, email: values.email || undefined }),
    send: (body, handlers) => register.mutate(body, handlers),
  });

  return (
    <>
      <AuthTitle title={t('auth.officerSignup.title')}>{t('auth.officerSignup.subtitle')}</AuthTitle>
      <form onSubmit={onSubmit} {...formProps}>
        <Stack gap="sm">
          <AccountFields input={form.getInputProps} values={form.values} emailOptional />
          <TextInput
            label={t('auth.officerSignup.office')}
            placeholder={t('auth.officerSignup.officePlaceholder')}
            required
            {...form.getInputProps('office')}
          />
          <Deferred>
            <DistrictsSelect
              label={t('auth.officerSignup.districts')}
              description={t('auth.officerSignup.districtsHint')}
              searchable
              required
              maxValues={10}
              nothingFoundMessage={t('auth.officerSignup.noDistrict')}
              {...form.getInputProps('districts')}
            />
          </Deferred>
          <ConsentFields role="officer" input={(field) => form.getInputProps(field, { type: 'checkbox' })} />
          <Button type="submit" loading={register.isPending} fullWidth mt="xs">
            {t('auth.signup.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center" mt="lg">
        {t('auth.signup.haveAccount')}{' '}
        <Anchor component={Link} to={routes.auth.login}>
          {t('auth.links.signIn')}
        </Anchor>
      </Text>
    </>
  );
}
