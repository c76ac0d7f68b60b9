import { useState, type FormEvent } from 'react';
import { Anchor, Button, NumberInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { expertRegisterBody } from '@kutu/contract';
import { routes } from '../../../app/routes.ts';
import { PhoneInput } from '../../../components/PhoneInput/PhoneInput.tsx';
import { PasswordStrength } from '../../../components/PasswordStrength/PasswordStrength.tsx';
import { useRegisterExpert } from '../api/auth.ts';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { useSignUpFlow } from '../components/useSignUpFlow.ts';
import { fieldErrors } from '../forms.ts';
import { PasswordField } from '../../../components/PasswordStrength/PasswordField.tsx';

const empty = {
  email: '',
  username: '',
  password: '',
  phone_number: '',
  areas_of_expertise: '',
  certifications: '',
  bio: '',
  experience_years: 0 as number | string,
  institution: '',
  languages_spoken: '',
  social_links: '',
};
type Values = typeof empty;
type TextKey = Exclude<keyof Values, 'experience_years'>;

export default function ExpertSignupPage() {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const register = useRegisterExpert();
  const flow = useSignUpFlow(setErrors);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const text = (key: TextKey, required = false) => ({
    value: values[key],
    onChange: (e: { currentTarget: { value: string } }) => set(key, e.currentTarget.value),
    error: errors[key],
    required,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = expertRegisterBody.safeParse({
      ...values,
      experience_years: values.experience_years === '' ? 0 : values.experience_years,
    });
    if (!parsed.success) return flow.invalid(fieldErrors(parsed.error));
    setErrors({});
    register.mutate(parsed.data, { onSuccess: flow.onSuccess, onError: flow.onError });
  };

  return (
    <>
      <AuthTitle title={t('auth.signup.expertTitle')}>{t('auth.signup.expertSubtitle')}</AuthTitle>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('auth.fields.email')} type="email" autoComplete="email" {...text('email', true)} />
          <TextInput label={t('auth.fields.username')} autoComplete="username" {...text('username', true)} />
          <PasswordField label={t('auth.fields.password')} autoComplete="new-password" {...text('password', true)} />
          <PasswordStrength password={values.password} userInputs={[values.email, values.username]} />
          <PhoneInput
            value={values.phone_number}
            onChange={(v) => set('phone_number', v)}
            error={errors.phone_number}
            required
          />
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
          <Textarea label={t('auth.fields.bio')} autosize minRows={3} maxRows={8} {...text('bio')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <NumberInput
              label={t('auth.fields.experienceYears')}
              value={values.experience_years}
              onChange={(v) => set('experience_years', v)}
              error={errors.experience_years}
              min={0}
              max={80}
              allowDecimal={false}
              allowNegative={false}
            />
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
