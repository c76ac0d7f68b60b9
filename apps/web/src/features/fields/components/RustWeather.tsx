import { Alert, Text } from '@mantine/core';
import { IconCloudRain } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Field } from '@kutu/contract';
import { useFieldForecast } from '../../../api/forecast.ts';
import { formatDate } from '../../../lib/format.ts';

const colours = { high: 'red', moderate: 'yellow', low: 'green', unknown: 'gray' } as const;

/**
 * The field's week of rust weather (decision 0100): a high week names the day to walk the field by; no
 * weather says so, never "low". Only maize and bean fields with a district have one.
 */
export function RustWeather({ field }: { field: Field }) {
  const { t } = useTranslation();
  const forecast = useFieldForecast();
  const mine = forecast.data?.fields.find((f) => f.field_id === field.id);
  if (!mine) return null;
  const day = mine.walk_by ? formatDate(`${mine.walk_by}T12:00:00Z`, 'UTC') : '';
  const age = mine.weather.age_hours;
  return (
    <Alert
      color={colours[mine.worst]}
      icon={<IconCloudRain size={20} />}
      title={t(`fields.weather.${mine.worst}`, { day })}
      data-testid="rust-weather"
      data-level={mine.worst}
    >
      <Text size="sm">{t(`fields.weather.${mine.worst}Advice`)}</Text>
      {age !== null && (
        <Text size="xs" c="dimmed" mt={4}>
          {Math.round(age) === 0 ? t('fields.weather.ageNow') : t('fields.weather.age', { count: Math.round(age) })}
        </Text>
      )}
    </Alert>
  );
}
