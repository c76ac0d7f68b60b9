import { useState, type FormEvent } from 'react';
import { Anchor, Button, MultiSelect, NumberInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cropTypes, farmerRegisterBody } from '@kutu/contract';
import { routes } from '../../../app/routes.ts';
import { PhoneInput } from '../../../components/PhoneInput/PhoneInput.tsx';
import { PasswordStrength } from '../../../components/PasswordStrength/PasswordStrength.tsx';
import { useRegisterFarmer } from '../api/auth.ts';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { useSignUpFlow } from '../components/useSignUpFlow.ts';
import { fieldErrors } from '../forms.ts';
import { PasswordField } from '../../../components/PasswordStrength/PasswordField.tsx';

const empty = {
  email: '',
  username: '',
  password: '',
  confirm_password: '',
  phone_number: '',
  farm_location: '',
  farm_size: '' as number | string,
  crop_types: [] as string[],
};
type Values = typeof empty;

export default function FarmerSignupPage() {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const register = useRegisterFarmer();
  const flow = useSignUpFlow(setErrors);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = farmerRegisterBody.safeParse({
      ...values,
      farm_size: values.farm_size === '' ? undefined : values.farm_size,
    });
    if (!parsed.success) return flow.invalid(fieldErrors(parsed.error));
    setErrors({});
    register.mutate(parsed.data, { onSuccess: flow.onSuccess, onError: flow.onError });
  };

  const cropOptions = cropTypes.map((c) => ({ value: c, label: t(`auth.crops.${c}`) }));

  return (
    <>
      <AuthTitle title={t('auth.signup.farmerTitle')}>{t('auth.signup.farmerSubtitle')}</AuthTitle>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(e) => set('email', e.currentTarget.value)}
            error={errors.email}
            required
          />
          <TextInput
            label={t('auth.fields.username')}
            autoComplete="username"
            value={values.username}
            onChange={(e) => set('username', e.currentTarget.value)}
            error={errors.username}
            required
          />
          <PasswordField
            label={t('auth.fields.password')}
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => set('password', e.currentTarget.value)}
            error={errors.password}
            required
          />
          <PasswordStrength password={values.password} userInputs={[values.email, values.username]} />
          <PasswordField
            label={t('auth.fields.confirmPassword')}
            autoComplete="new-password"
            value={values.confirm_password}
            onChange={(e) => set('confirm_password', e.currentTarget.value)}
            error={errors.confirm_password}
            required
          />
          <PhoneInput
            value={values.phone_number}
            onChange={(v) => set('phone_number', v)}
            error={errors.phone_number}
            required
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label={t('auth.fields.farmLocation')}
              placeholder={t('auth.fields.farmLocationPlaceholder')}
              value={values.farm_location}
              onChange={(e) => set('farm_location', e.currentTarget.value)}
              error={errors.farm_location}
              required
            />
            <NumberInput
              label={t('auth.fields.farmSize')}
              value={values.farm_size}
              onChange={(v) => set('farm_size', v)}
              error={errors.farm_size}
              min={0}
              decimalScale={2}
              allowNegative={false}
              required
            />
          </SimpleGrid>
          <MultiSelect
            label={t('auth.fields.cropTypes')}
            placeholder={values.crop_types.length ? undefined : t('auth.fields.cropTypesPlaceholder')}
            data={cropOptions}
            value={values.crop_types}
            onChange={(v) => set('crop_types', v)}
            error={errors.crop_types}
            clearable
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
