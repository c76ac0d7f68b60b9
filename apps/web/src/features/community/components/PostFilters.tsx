import { Group, NativeSelect } from '@mantine/core';
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
        <NativeSelect
          aria-label={t('community.fields.status')}
          w={150}
          data={[
            { value: '', label: t('community.filters.anyStatus') },
            ...(['pending', 'approved', 'flagged'] as const).map((s) => ({
              value: s,
              label: t(`community.status.${s}`),
            })),
          ]}
          value={value.status ?? ''}
          onChange={(e) => set({ status: (e.currentTarget.value as ModerationStatus) || undefined })}
        />
      )}
      <NativeSelect
        aria-label={t('community.fields.crop')}
        w={{ base: '100%', sm: 150 }}
        data={[{ value: '', label: t('community.filters.anyCrop') }, ...cropOptions]}
        value={value.crop_type ?? ''}
        onChange={(e) => set({ crop_type: (e.currentTarget.value as CropType) || undefined })}
      />
      <NativeSelect
        aria-label={t('community.fields.disease')}
        w={{ base: '100%', sm: 170 }}
        data={[{ value: '', label: t('community.filters.anyDisease') }, ...diseaseOptions]}
        value={value.disease_type ?? ''}
        onChange={(e) => set({ disease_type: (e.currentTarget.value as DiseaseType) || undefined })}
      />
      <NativeSelect
        aria-label={t('community.fields.urgency')}
        w={{ base: '100%', sm: 180 }}
        data={[{ value: '', label: t('community.filters.anyUrgency') }, ...urgencyOptions]}
        value={value.urgency_level ?? ''}
        onChange={(e) => set({ urgency_level: (e.currentTarget.value as UrgencyLevel) || undefined })}
      />
    </Group>
  );
}
