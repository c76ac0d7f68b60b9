import { useCallback } from 'react';
import { Anchor, Button, Checkbox, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { cropTypes } from '@kutu/contract/enums';
import { routes } from '../../../config/routes.ts';
import { useRegisterFarmer } from '../../../api/auth.ts';
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
  farm_location: '',
  farm_size: '',
  crop_types: [] as string[],
  /** The district or county code (outbreak alerts go by district, decision 0032); '' until chosen. */
  district: '',
  /** Nothing ticked for the person: the service box must be, the two others are free. */
  consent: { service: false, sms: false, training: false },
};

export default function FarmerSignupPage() {
  const { t } = useTranslation();
  const register = useRegisterFarmer();
  const { form, onSubmit, formProps } = useSignUpForm({
    schema: (contract) => contract.farmerRegisterBody,
    initialValues: empty,
    // The schema makes a number of the typed text; an empty box is a missing farm size ("must be a
    // number"), not a size of 0.
    prepare: (values) => ({
      ...values,
      farm_size: values.farm_size.trim() || undefined,
      district: values.district || undefined,
    }),
    send: (body, handlers) => register.mutate(body, handlers),
  });
  // Stable, so the district list (memo) does not render again with each key typed in the other fields.
  const { setFieldValue } = form;
  const setDistrict = useCallback((code: string) => setFieldValue('district', code), [setFieldValue]);

  return (
    <>
      <AuthTitle title={t('auth.signup.farmerTitle')}>{t('auth.signup.farmerSubtitle')}</AuthTitle>
      <form onSubmit={onSubmit} {...formProps}>
        <Stack gap="sm">
          <AccountFields input={form.getInputProps} values={form.values} emailOptional />
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
          <DistrictPicker value={form.values.district} onChange={setDistrict} error={form.errors.district} />
          {/* Four crops: boxes to tick, no dropdown (and none of its code) on a phone. */}
          <Checkbox.Group
            label={t('auth.fields.cropTypes')}
            description={t('auth.fields.cropTypesHint')}
            {...form.getInputProps('crop_types')}
          >
            <Group gap="md" mt={6}>
              {cropTypes.map((c) => (
                <Checkbox key={c} value={c} label={t(`auth.crops.${c}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <ConsentFields role="farmer" input={(field) => form.getInputProps(field, { type: 'checkbox' })} />
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
