import { useCallback } from 'react';
import { Anchor, Button, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { useRegisterExpert } from '../../../api/auth.ts';
import { AccountFields } from '../components/AccountFields.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { DistrictPicker } from '../../../components/outbreak/DistrictPicker.tsx';
import { useSignUpForm } from '../components/useSignUpFlow.ts';
import { ConsentFields } from '../components/ConsentFields.tsx';

const empty = {
  email: '',
  username: '',
  password: '',
  confirm_password: '',
  phone_number: '',
  areas_of_expertise: '',
  certifications: '',
  bio: '',
  experience_years: '0',
  institution: '',
  languages_spoken: '',
  social_links: '',
  /** The district or county the expert serves (decision 0032): its outbreak alerts reach them. '' until chosen. */
  district: '',
  /** Nothing ticked for the person: the service box must be, the two others are free. */
  consent: { service: false, sms: false },
};

export default function ExpertSignupPage() {
  const { t } = useTranslation();
  const register = useRegisterExpert();
  const { form, onSubmit, formProps } = useSignUpForm({
    schema: (contract) => contract.expertRegisterBody,
    initialValues: empty,
    // The schema makes a number of the typed text; an emptied years box means none, as the server's default.
    prepare: (values) => ({
      ...values,
      experience_years: values.experience_years.trim() || 0,
      district: values.district || undefined,
    }),
    send: (body, handlers) => register.mutate(body, handlers),
  });
  const text = (key: keyof typeof empty, required = false) => ({ required, ...form.getInputProps(key) });
  // Stable, so the district list (memo) does not render again with each key typed in the other fields.
  const { setFieldValue } = form;
  const setDistrict = useCallback((code: string) => setFieldValue('district', code), [setFieldValue]);

  return (
    <>
      <AuthTitle title={t('auth.signup.expertTitle')}>{t('auth.signup.expertSubtitle')}</AuthTitle>
      <form onSubmit={onSubmit} {...formProps}>
        <Stack gap="sm">
          <AccountFields input={form.getInputProps} values={form.values} />
          <TextInput
            label={t('auth.fields.areasOfExpertise')}
            placeholder={t('auth.fields.areasOfExpertisePlaceholder')}
            {...text('areas_of_expertise', true)}
          />
          <TextInput
            label={t('auth.fields.certifications')}
            placeholder={t('auth.fields.certificationsPlaceholder')}
            {...text('certifications')}
          />
          <DistrictPicker
            whose="mine"
            value={form.values.district}
            onChange={setDistrict}
            error={form.errors.district}
          />
          <Textarea label={t('auth.fields.bio')} autosize minRows={3} maxRows={8} {...text('bio')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput label={t('auth.fields.experienceYears')} inputMode="numeric" {...text('experience_years')} />
            <TextInput label={t('auth.fields.institution')} {...text('institution')} />
          </SimpleGrid>
          <TextInput
            label={t('auth.fields.languagesSpoken')}
            placeholder={t('auth.fields.languagesSpokenPlaceholder')}
            {...text('languages_spoken')}
          />
          <TextInput
            label={t('auth.fields.socialLinks')}
            placeholder={t('auth.fields.socialLinksPlaceholder')}
            {...text('social_links')}
          />
          <ConsentFields role="expert" input={(field) => form.getInputProps(field, { type: 'checkbox' })} />
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
