import { useState, type FormEvent } from 'react';
import { Button, Group, SegmentedControl, Input, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { completeProfileBody, genders, idTypes, type UserRecord } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage, ApiError } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCompleteProfile } from '../api/profile.ts';

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

/** The Complete Profile form; required fields are checked here with the server's own rules. */
export function CompleteProfileForm({ user, onDone }: { user: UserRecord | null; onDone: (user: UserRecord) => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(() => fromUser(user));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const complete = useCompleteProfile();

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const text = (key: TextKey, required = true) => ({
    label: t(`profile.form.${key}`),
    value: values[key],
    onChange: (e: { currentTarget: { value: string } }) => set(key, e.currentTarget.value),
    error: errors[key],
    required,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = completeProfileBody.safeParse(values);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '');
        if (key && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      notifyError(t('auth.signup.fixFields'));
      return;
    }
    setErrors({});
    complete.mutate(parsed.data, {
      onSuccess: (updated) => {
        notifySuccess(t('profile.form.saved'));
        onDone(updated);
      },
      onError: (err) => {
        if (err instanceof ApiError) setErrors(err.fields);
        notifyError(errorMessage(err));
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={720}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('profile.form.idType')}
            data={idTypes.map((v) => ({ value: v, label: t(`profile.form.idTypes.${v}`) }))}
            value={values.idType}
            onChange={(v) => v && set('idType', v as Values['idType'])}
            allowDeselect={false}
            error={errors.idType}
            required
          />
          <TextInput {...text('idNumber')} />
        </SimpleGrid>
        <TextInput {...text('organisationName')} />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput {...text('firstName')} autoComplete="given-name" />
          <TextInput {...text('middleName', false)} autoComplete="additional-name" />
          <TextInput {...text('lastName')} autoComplete="family-name" />
        </SimpleGrid>
        <Input.Wrapper label={t('profile.form.gender')} required error={errors.gender}>
          <div>
            <SegmentedControl
              mt={4}
              data={genders.map((g) => ({ value: g, label: t(`profile.form.genders.${g}`) }))}
              value={values.gender}
              onChange={(v) => set('gender', v as Values['gender'])}
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
