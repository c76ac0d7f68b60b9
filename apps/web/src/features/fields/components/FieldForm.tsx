import { useCallback, useState } from 'react';
import { Button, Group, Input, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMapPin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  type AnalysisCrop,
  type Field,
  FIELD_NAME_MAX,
  type FieldLocation,
  fieldInput,
  fieldPatch,
} from '@kutu/contract';
import { analysisCrops } from '@kutu/contract/enums';
import { useCreateField, useUpdateField } from '../../../api/fields.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useContractForm } from '../../../lib/contract-form.ts';
import { serverFieldErrors } from '../../../lib/forms.ts';
import { formatNumber } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { DistrictPicker } from '../../../components/outbreak/DistrictPicker.tsx';
import { FittingSegmentedControl } from '../../../components/FittingSegmentedControl.tsx';
import { PHONE_QUERY } from '../../../config/theme.ts';

interface Values extends Record<string, unknown> {
  name: string;
  crop: AnalysisCrop;
  size_acres: string;
  district: string;
  planted_on: string;
  location: FieldLocation | null;
}

const valuesOf = (field: Field | null): Values => ({
  name: field?.name ?? '',
  crop: field?.crop ?? 'maize',
  size_acres: field?.size_acres === null || field?.size_acres === undefined ? '' : String(field.size_acres),
  district: field?.district ?? '',
  planted_on: field?.planted_on ?? '',
  location: field?.location ?? null,
});

/** The body the contract reads: an emptied size or planting date clears it (null), as the server takes it. */
const bodyOf = (v: Values) => ({
  name: v.name,
  crop: v.crop,
  size_acres: v.size_acres.trim() === '' ? null : v.size_acres.trim(),
  district: v.district || undefined,
  planted_on: v.planted_on || null,
  location: v.location,
});

type Place = 'idle' | 'locating' | 'denied';

/** "Use my location" standing in the field: its place, rounded to about a metre; the schema checks the country. */
function PlaceInput({
  value,
  onChange,
  error,
}: {
  value: FieldLocation | null;
  onChange: (place: FieldLocation | null) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Place>('idle');
  const locate = () => {
    if (!('geolocation' in navigator)) {
      setStatus('denied');
      return;
    }
    setStatus('locating');
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        setStatus('idle');
        const round = (n: number) => Math.round(n * 1e5) / 1e5;
        onChange({ lat: round(coords.latitude), lng: round(coords.longitude) });
      },
      () => setStatus('denied'),
      { enableHighAccuracy: true, timeout: 30_000, maximumAge: 60_000 },
    );
  };
  return (
    <Input.Wrapper label={t('fields.form.place')} description={t('fields.form.placeHint')} error={error}>
      <Stack gap={4} mt={6}>
        {value ? (
          <Group gap="xs">
            <Text size="sm" data-testid="field-place">
              {t('fields.form.placeSaved', { lat: formatNumber(value.lat, 5), lng: formatNumber(value.lng, 5) })}
            </Text>
            <Button variant="subtle" size="compact-sm" onClick={() => onChange(null)}>
              {t('fields.form.placeRemove')}
            </Button>
          </Group>
        ) : (
          <Button
            variant="light"
            size="sm"
            leftSection={<IconMapPin size={16} />}
            onClick={locate}
            loading={status === 'locating'}
            style={{ alignSelf: 'flex-start' }}
          >
            {t('fields.form.placeUse')}
          </Button>
        )}
        {status === 'denied' && (
          <Text size="xs" c="orange.9" role="status">
            {t('auth.district.denied')}
          </Text>
        )}
      </Stack>
    </Input.Wrapper>
  );
}

/** Adds a field (`field` null) or changes one: name, crop, size, district, planting date and its place. */
export default function FieldForm({
  field = null,
  opened,
  onClose,
  onSaved,
}: {
  field?: Field | null;
  opened: boolean;
  onClose: () => void;
  onSaved?: (field: Field) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateField();
  const update = useUpdateField(field?.id ?? 0);
  const form = useContractForm<Values>(field ? fieldPatch : fieldInput, {
    initialValues: valuesOf(field),
    prepare: bodyOf,
  });
  // Stable, so the district list (memo) does not render again with each key typed in the other fields.
  const { setFieldValue } = form;
  const setDistrict = useCallback((code: string) => setFieldValue('district', code), [setFieldValue]);
  const saving = create.isPending || update.isPending;
  const close = () => {
    form.setValues(valuesOf(field));
    form.clearErrors();
    onClose();
  };
  const submit = form.onSubmit((values) => {
    const body = bodyOf(values);
    const saved = field ? update.mutateAsync(body) : create.mutateAsync(body);
    saved.then(
      (result) => {
        notifySuccess(t('fields.form.saved', { name: result.name }));
        onSaved?.(result);
        close();
      },
      (err: unknown) => {
        form.setErrors(serverFieldErrors(err));
        notifyError(errorMessage(err));
      },
    );
  });
  const today = new Date().toISOString().slice(0, 10);
  const phone = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t(field ? 'fields.form.editTitle' : 'fields.form.addTitle')}
      fullScreen={phone}
    >
      <form onSubmit={submit} noValidate data-testid="field-form">
        <Stack gap="md">
          <TextInput
            label={t('fields.form.name')}
            description={t('fields.form.nameHint')}
            required
            maxLength={FIELD_NAME_MAX}
            {...form.getInputProps('name')}
          />
          <Input.Wrapper label={t('fields.form.crop')} required error={form.errors.crop}>
            <FittingSegmentedControl
              mt={6}
              fullWidth
              aria-label={t('fields.form.crop')}
              value={form.values.crop}
              onChange={(crop) => form.setFieldValue('crop', crop as AnalysisCrop)}
              data={analysisCrops.map((c) => ({ value: c, label: t(`review.crop.${c}`) }))}
            />
          </Input.Wrapper>
          <TextInput label={t('fields.form.size')} inputMode="decimal" {...form.getInputProps('size_acres')} />
          <TextInput
            type="date"
            label={t('fields.form.planted')}
            description={t('fields.form.plantedHint')}
            max={today}
            {...form.getInputProps('planted_on')}
          />
          <DistrictPicker
            whose="field"
            value={form.values.district}
            onChange={setDistrict}
            error={form.errors.district}
          />
          <PlaceInput
            value={form.values.location}
            onChange={(place) => form.setFieldValue('location', place)}
            error={(form.errors['location.lat'] ?? form.errors['location.lng'] ?? form.errors.location) as string}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('fields.form.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('fields.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
