import { Button, Group, SegmentedControl, Input, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { completeProfileBody, genders, idTypes, type UserRecord } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { serverFieldErrors } from '../../../lib/forms.ts';
import { useCompleteProfile } from '../../../api/profile.ts';
import { useContractForm } from '../../../lib/contract-form.ts';

const empty = {
  idType: 'NATIONAL_ID' as (typeof idTypes)[number],
  idNumber: '',
  organisationName: '',
  firstName: '',
  middleName: '',
  lastName: '',
  gender: 'MALE' as (typeof genders)[number],
  physicalAddress: '',
  nationality: '',
  dob: '',
  occupation: '',
};
type Values = typeof empty;
type TextKey = Exclude<keyof Values, 'idType' | 'gender'>;

function fromUser(user: UserRecord | null): Values {
  const p = user?.profile;
  return p ? { ...empty, ...p, middleName: p.middleName ?? '' } : empty;
}

/** The Complete Profile form: each field declared once, checked with the contract's own body schema. */
export function CompleteProfileForm({ user, onDone }: { user: UserRecord | null; onDone: (user: UserRecord) => void }) {
  const { t } = useTranslation();
  const form = useContractForm<Values>(completeProfileBody, { initialValues: fromUser(user) });
  const complete = useCompleteProfile();

  const text = (key: TextKey, required = true) => ({
    label: t(`profile.form.${key}`),
    required,
    ...form.getInputProps(key),
  });
  const gender = form.getInputProps('gender');

  const submit = form.onSubmit(
    (values) =>
      complete.mutate(completeProfileBody.parse(values), {
        onSuccess: (updated) => {
          notifySuccess(t('profile.form.saved'));
          onDone(updated);
        },
        onError: (err) => {
          form.setErrors(serverFieldErrors(err));
          notifyError(errorMessage(err));
        },
      }),
    () => notifyError(t('auth.signup.fixFields')),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={720}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label={t('profile.form.idType')}
            data={idTypes.map((v) => ({ value: v, label: t(`profile.form.idTypes.${v}`) }))}
            required
            {...form.getInputProps('idType')}
          />
          <TextInput {...text('idNumber')} />
        </SimpleGrid>
        <TextInput {...text('organisationName')} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput {...text('firstName')} autoComplete="given-name" />
          <TextInput {...text('middleName', false)} autoComplete="additional-name" />
          <TextInput {...text('lastName')} autoComplete="family-name" />
        </SimpleGrid>
        <Input.Wrapper label={t('profile.form.gender')} required error={gender.error}>
          <div>
            <SegmentedControl
              mt={4}
              data={genders.map((g) => ({ value: g, label: t(`profile.form.genders.${g}`) }))}
              value={gender.value}
              onChange={gender.onChange}
              aria-label={t('profile.form.gender')}
            />
          </div>
        </Input.Wrapper>
        <TextInput {...text('physicalAddress')} autoComplete="street-address" />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput {...text('nationality')} />
          <TextInput {...text('dob')} type="date" max={new Date().toISOString().slice(0, 10)} autoComplete="bday" />
          <TextInput {...text('occupation')} />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={complete.isPending}>
            {t('profile.form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
