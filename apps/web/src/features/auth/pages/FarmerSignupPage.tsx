import { Anchor, Button, MultiSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cropTypes, farmerRegisterBody } from '@kutu/contract';
import { routes } from '../../../app/routes.ts';
import { useRegisterFarmer } from '../api/auth.ts';
import { AccountFields } from '../components/AccountFields.tsx';
import { AuthTitle } from '../components/AuthTitle.tsx';
import { useSignUpForm } from '../components/useSignUpFlow.ts';

const empty = {
  email: '',
  username: '',
  password: '',
  confirm_password: '',
  phone_number: '',
  farm_location: '',
  farm_size: '',
  crop_types: [] as string[],
};

export default function FarmerSignupPage() {
  const { t } = useTranslation();
  const register = useRegisterFarmer();
  const { form, onSubmit } = useSignUpForm({
    schema: farmerRegisterBody,
    initialValues: empty,
    // The schema makes a number of the typed text; an empty box is a missing farm size ("must be a
    // number"), not a size of 0.
    prepare: (values) => ({ ...values, farm_size: values.farm_size.trim() || undefined }),
    send: (body, handlers) => register.mutate(body, handlers),
  });
  const values = form.values;
  const cropOptions = cropTypes.map((c) => ({ value: c, label: t(`auth.crops.${c}`) }));

  return (
    <>
      <AuthTitle title={t('auth.signup.farmerTitle')}>{t('auth.signup.farmerSubtitle')}</AuthTitle>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <AccountFields input={form.getInputProps} values={values} withConfirm emailOptional />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label={t('auth.fields.farmLocation')}
              placeholder={t('auth.fields.farmLocationPlaceholder')}
              required
              {...form.getInputProps('farm_location')}
            />
            <TextInput
              label={t('auth.fields.farmSize')}
              inputMode="decimal"
              {...form.getInputProps('farm_size')}
              required
            />
          </SimpleGrid>
          <MultiSelect
            label={t('auth.fields.cropTypes')}
            placeholder={values.crop_types.length ? undefined : t('auth.fields.cropTypesPlaceholder')}
            data={cropOptions}
            clearable
            {...form.getInputProps('crop_types')}
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
