import { Alert, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ForecastCrop } from '@kutu/contract';
import { useDistrictForecast } from '../../../api/forecast.ts';
import { formatDate } from '../../../lib/format.ts';
import { reasonsOf } from '../../../lib/forecast-reasons.ts';

/** Why a district's days read as they do ("12 wet hours at 16–25 °C…; rust next door in Mbale"), under the risk map. */
export function ForecastReasons({ code, crop }: { code: string; crop: ForecastCrop }) {
  const { t } = useTranslation();
  const q = useDistrictForecast(code, crop);
  if (q.isPending && q.fetchStatus !== 'paused') return <Loader size="sm" />;
  if (!q.data) {
    return (
      <Alert color="red" data-testid="forecast-reasons-error">
        {t('outbreak.forecast.loadError')}
      </Alert>
    );
  }
  const d = q.data;
  return (
    <Stack gap="xs" data-testid="forecast-reasons">
      <Title order={3} size="h4">
        {t('outbreak.forecast.why.title', { name: d.name, level: t(`outbreak.forecast.levels.${d.worst}`) })}
      </Title>
      <List spacing="xs" size="sm">
        {d.days.map((day) => (
          <List.Item key={day.day} data-testid="forecast-reason">
            <Text span fw={600} size="sm">
              {`${formatDate(`${day.day}T12:00:00Z`, 'UTC')}: ${t(`outbreak.forecast.levels.${day.level}`)}. `}
            </Text>
            {reasonsOf(day.basis, day.level, t).join('; ')}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
