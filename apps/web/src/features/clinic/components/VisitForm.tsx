import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CLINIC_MAX_PHOTOS, type ClinicVisit, clinicVisitFields, growthStages } from '@kutu/contract';
import { useRecordVisit } from '../../../api/clinic.ts';
import { PhoneInput } from '../../../components/PhoneInput/PhoneInput.tsx';
import { PhotoPicker } from '../../../components/PhotoPicker/PhotoPicker.tsx';
import { DistrictPicker } from '../../../components/outbreak/DistrictPicker.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { useContractForm } from '../../../lib/contract-form.ts';
import { notifyError } from '../../../lib/notify.ts';
import { preparePhoto, type PreparedPhoto } from '../../../lib/shrink.ts';
import { translateErrors } from '../../../lib/validation.ts';
import { FieldAndWalk, NEW_FIELD } from './FieldAndWalk.tsx';

const empty = {
  phone_number: '',
  crop: 'maize',
  variety: '',
  growth_stage: '',
  share_affected: '' as number | string,
  /** The farmer's field: '' their usual one of the crop, NEW_FIELD, or a field's id. */
  field_id: '',
  field_name: '',
  planted_on: '',
  plants_looked: '' as number | string,
  plants_rust: '' as number | string,
  symptoms: '',
  farmer_name: '',
  district: '',
  language: '',
  consent: false,
  /** The new farmer's free choices, asked with the consent (none ticked for them). */
  consent_sms: false,
  consent_training: false,
};

type Values = typeof empty;
const blank = (v: number | string) => (v === '' ? undefined : v);

/**
 * What the server reads: an empty number is no answer (not 0), and the field is one of the farmer's (its
 * id) or a new one (its name and planting date), never both.
 */
function body(v: Values) {
  const isNew = v.field_id === NEW_FIELD;
  return {
    ...v,
    share_affected: blank(v.share_affected),
    plants_looked: blank(v.plants_looked),
    plants_rust: blank(v.plants_rust),
    field_id: isNew || v.field_id === '' ? undefined : v.field_id,
    field_name: isNew ? v.field_name : undefined,
    planted_on: isNew && v.planted_on ? v.planted_on : undefined,
  };
}

/**
 * The visit: the farmer's number (and, for a number new to Kutu, their name, district, language and
 * consent), the crop and field, the plants counted, and 1 to 3 photos from the expert's phone. Checked
 * with the contract's schema; the server says when a number is new, and the new-farmer part opens.
 */
export function VisitForm({ onRecorded }: { onRecorded: (visit: ClinicVisit) => void }) {
  const { t } = useTranslation();
  const form = useContractForm(clinicVisitFields, { initialValues: empty, prepare: body });
  const [photos, setPhotos] = useState<PreparedPhoto[]>([]);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [newFarmer, setNewFarmer] = useState(false);
  // One key per visit being written: a retried submit makes no second visit.
  const [key, setKey] = useState(() => crypto.randomUUID());
  const record = useRecordVisit();

  async function addPhoto(files: File[]) {
    const file = files[0];
    if (!file) return;
    const { photo, refusal } = await preparePhoto(file);
    if (refusal) return setPhotoError(t('clinic.form.photoRefused'));
    setPhotoError(null);
    setPhotos((list) => [...list, photo].slice(0, CLINIC_MAX_PHOTOS));
  }

  const submit = form.onSubmit((values) => {
    if (photos.length === 0) return setPhotoError(t('clinic.form.photoNeeded'));
    const sent = new FormData();
    for (const [name, value] of Object.entries(body(values))) {
      if (value !== undefined && value !== '' && value !== false) sent.append(name, String(value));
    }
    for (const p of photos) sent.append('photos', p.blob, p.filename);
    record.mutate(
      { form: sent, key },
      {
        onSuccess: (visit) => {
          setKey(crypto.randomUUID());
          setPhotos([]);
          form.reset();
          setNewFarmer(false);
          onRecorded(visit);
        },
        onError: (err) => {
          if (err instanceof ApiError && err.fields) {
            form.setErrors(translateErrors(err.fields));
            if ('farmer_name' in err.fields || 'consent' in err.fields) setNewFarmer(true);
          }
          notifyError(errorMessage(err), t('clinic.form.error'));
        },
      },
    );
  });

  const options = (values: readonly string[], prefix: string) => [
    { value: '', label: t('clinic.form.choose') },
    ...values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) })),
  ];

  return (
    <form onSubmit={submit} noValidate aria-label={t('clinic.form.title')}>
      <Stack gap="sm">
        <PhoneInput
          label={t('clinic.form.phone')}
          required
          value={form.values.phone_number}
          onChange={(v) => form.setFieldValue('phone_number', v)}
          error={form.errors.phone_number}
        />
        {newFarmer && (
          <Stack gap="sm">
            <Alert color="blue">{t('clinic.form.newFarmerIntro')}</Alert>
            <TextInput label={t('clinic.form.farmerName')} required {...form.getInputProps('farmer_name')} />
            <DistrictPicker
              whose="farmer"
              value={form.values.district}
              onChange={(code) => form.setFieldValue('district', code)}
              error={form.errors.district}
              required
            />
            <NativeSelect
              label={t('clinic.form.language')}
              required
              data={[
                { value: '', label: t('clinic.form.choose') },
                { value: 'en', label: 'English' },
                { value: 'sw', label: 'Kiswahili' },
                { value: 'lg', label: 'Luganda' },
              ]}
              {...form.getInputProps('language')}
            />
            <Checkbox label={t('clinic.form.consent')} {...form.getInputProps('consent', { type: 'checkbox' })} />
            <Checkbox
              label={t('clinic.form.consentSms')}
              {...form.getInputProps('consent_sms', { type: 'checkbox' })}
            />
            <Checkbox
              label={t('clinic.form.consentTraining')}
              {...form.getInputProps('consent_training', { type: 'checkbox' })}
            />
          </Stack>
        )}
        {!newFarmer && (
          <Button variant="subtle" size="compact-sm" onClick={() => setNewFarmer(true)} style={{ alignSelf: 'start' }}>
            {t('clinic.form.isNew')}
          </Button>
        )}
        <NativeSelect
          label={t('clinic.form.crop')}
          required
          data={['maize', 'beans', 'other'].map((c) => ({ value: c, label: t(`review.crop.${c}`) }))}
          {...form.getInputProps('crop')}
        />
        <TextInput label={t('clinic.form.variety')} {...form.getInputProps('variety')} />
        <NativeSelect
          label={t('clinic.form.stage')}
          required
          data={options(growthStages, 'clinic.stages')}
          {...form.getInputProps('growth_stage')}
        />
        <FieldAndWalk form={form} />
        <NumberInput
          label={t('clinic.form.share')}
          description={t('clinic.form.shareHint')}
          min={0}
          max={100}
          suffix=" %"
          allowDecimal={false}
          {...form.getInputProps('share_affected')}
        />
        <Textarea label={t('clinic.form.symptoms')} autosize minRows={2} {...form.getInputProps('symptoms')} />
        <Text size="sm" fw={500}>
          {t('clinic.form.photos', { count: photos.length, max: CLINIC_MAX_PHOTOS })}
        </Text>
        {photos.length < CLINIC_MAX_PHOTOS && (
          <PhotoPicker
            label={t('clinic.form.addPhoto')}
            onPick={(files) => void addPhoto(files)}
            testId="clinic-photo"
          />
        )}
        {photoError && (
          <Text c="red.8" size="sm" role="alert">
            {photoError}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={record.isPending}>
            {t('clinic.form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
