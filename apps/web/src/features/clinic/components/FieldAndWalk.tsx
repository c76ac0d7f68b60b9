import { useEffect } from 'react';
import { NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { WALK_MAX_PLANTS } from '@kutu/contract';
import { useFarmerFields } from '../../../api/clinic.ts';
import { analysePhone } from '../../../components/PhoneInput/phone.ts';

/** The form's values this part fills: the field chosen ('' the farmer's usual one, 'new', or an id) and the counts. */
export interface FieldAndWalkValues {
  phone_number: string;
  crop: string;
  field_id: string;
  field_name: string;
  planted_on: string;
  plants_looked: number | string;
  plants_rust: number | string;
}

export const NEW_FIELD = 'new';
/** A whole number (the phone input gives the typed text until the number is one): only then are its fields asked. */
const isNumber = (phone: string) => /^\+[1-9]\d{6,14}$/.test(phone) && analysePhone(phone, null).valid;

/**
 * Which of the farmer's fields the visit is about (docs/decisions/0078), or a new one with its name and
 * planting date; and the walk's counts: the plants looked at and the plants with rust, which give the
 * farmer advice from the field rather than from one leaf.
 */
export function FieldAndWalk<V extends FieldAndWalkValues>({ form }: { form: UseFormReturnType<V> }) {
  const { t } = useTranslation();
  const { phone_number: phone, crop, field_id: chosen } = form.values;
  const fields = useFarmerFields(isNumber(phone) ? phone : null);
  const ofCrop = (fields.data?.results ?? []).filter((f) => f.crop === crop);
  const setField = form.setFieldValue as (path: string, value: string) => void;

  // Another crop, or another farmer: a field chosen before is not one of theirs any more.
  useEffect(() => {
    if (chosen !== '' && chosen !== NEW_FIELD && !ofCrop.some((f) => String(f.id) === chosen)) setField('field_id', '');
  }, [chosen, ofCrop, setField]);

  return (
    <Stack gap="sm">
      <NativeSelect
        label={t('clinic.form.field')}
        description={t('clinic.form.fieldHint')}
        data={[
          { value: '', label: t('clinic.form.fieldUsual', { crop: t(`review.crop.${crop}`) }) },
          ...ofCrop.map((f) => ({
            value: String(f.id),
            label: t('clinic.form.fieldOption', { name: f.name, number: f.number }),
          })),
          { value: NEW_FIELD, label: t('clinic.form.fieldNew') },
        ]}
        {...form.getInputProps('field_id')}
      />
      {chosen === NEW_FIELD && (
        <>
          <TextInput label={t('clinic.form.fieldName')} required maxLength={40} {...form.getInputProps('field_name')} />
          <TextInput type="date" label={t('clinic.form.plantedOn')} {...form.getInputProps('planted_on')} />
        </>
      )}
      <Text size="sm" fw={500}>
        {t('clinic.form.walk')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('clinic.form.walkHint')}
      </Text>
      <NumberInput
        label={t('clinic.form.looked')}
        min={1}
        max={WALK_MAX_PLANTS}
        allowDecimal={false}
        allowNegative={false}
        {...form.getInputProps('plants_looked')}
      />
      <NumberInput
        label={t('clinic.form.rust')}
        min={0}
        max={WALK_MAX_PLANTS}
        allowDecimal={false}
        allowNegative={false}
        {...form.getInputProps('plants_rust')}
      />
    </Stack>
  );
}
