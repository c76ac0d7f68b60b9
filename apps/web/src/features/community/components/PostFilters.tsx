import { Group, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CropType, DiseaseType, ModerationStatus, UrgencyLevel } from '@kutu/contract';
import { cropOptions, diseaseOptions, urgencyOptions } from './labels.ts';

export interface Filters {
  crop_type?: CropType;
  disease_type?: DiseaseType;
  urgency_level?: UrgencyLevel;
  status?: ModerationStatus;
}

/** Crop, disease and urgency filters (and the moderation state for experts). */
export function PostFilters({
  value,
  onChange,
  withStatus = false,
}: {
  value: Filters;
  onChange: (next: Filters) => void;
  withStatus?: boolean;
}) {
  const { t } = useTranslation();
  const set = (patch: Partial<Filters>) => onChange({ ...value, ...patch });
  return (
    <Group gap="xs" wrap="wrap">
      {withStatus && (
        <Select
          aria-label={t('community.fields.status')}
          placeholder={t('community.filters.anyStatus')}
          clearable
          w={150}
          data={(['pending', 'approved', 'flagged'] as const).map((s) => ({
            value: s,
            label: t(`community.status.${s}`),
          }))}
          value={value.status ?? null}
          onChange={(v) => set({ status: (v as ModerationStatus) || undefined })}
        />
      )}
      <Select
        aria-label={t('community.fields.crop')}
        placeholder={t('community.filters.anyCrop')}
        clearable
        w={150}
        data={cropOptions}
        value={value.crop_type ?? null}
        onChange={(v) => set({ crop_type: (v as CropType) || undefined })}
      />
      <Select
        aria-label={t('community.fields.disease')}
        placeholder={t('community.filters.anyDisease')}
        clearable
        w={170}
        data={diseaseOptions}
        value={value.disease_type ?? null}
        onChange={(v) => set({ disease_type: (v as DiseaseType) || undefined })}
      />
      <Select
        aria-label={t('community.fields.urgency')}
        placeholder={t('community.filters.anyUrgency')}
        clearable
        w={180}
        data={urgencyOptions}
        value={value.urgency_level ?? null}
        onChange={(v) => set({ urgency_level: (v as UrgencyLevel) || undefined })}
      />
    </Group>
  );
}
