import { Alert, List, Loader, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ForecastCrop, RiskBasis, RiskLevel } from '@kutu/contract';
import { useDistrictForecast } from '../../../api/forecast.ts';
import { formatDate } from '../../../lib/format.ts';

/** A day's level in plain words: the wet hours in the rust's band, then the rust near it (places named only as the map shows them). */
export function reasonsOf(basis: RiskBasis, level: RiskLevel, t: TFunction): string[] {
  if (level === 'unknown' || basis.wet_hours === null) return [t('outbreak.forecast.why.noWeather')];
  const [min, max] = basis.band;
  const out = [
    basis.wet_hours > 0
      ? t('outbreak.forecast.why.wet', {
          count: basis.wet_hours,
          min,
          max,
          run: basis.longest_run ?? 0,
          need: basis.infection_hours,
        })
      : t('outbreak.forecast.why.dry', { min, max }),
  ];
  if (basis.confirmed_here) out.push(t('outbreak.forecast.why.confirmedHere'));
  else if (basis.walked_rust_here) out.push(t('outbreak.forecast.why.walkedHere'));
  if (basis.walked_median != null)
    out.push(t('outbreak.forecast.why.walkedMedian', { share: Math.round(basis.walked_median * 100) }));
  if (basis.neighbours.length) out.push(t('outbreak.forecast.why.neighbours', { names: basis.neighbours.join(', ') }));
  if (basis.upwind.length) out.push(t('outbreak.forecast.why.upwind', { names: basis.upwind.join(', ') }));
  if (basis.unnamed_near) out.push(t('outbreak.forecast.why.unnamed'));
  const rustNear =
    basis.confirmed_here || basis.walked_rust_here || basis.neighbours.length > 0 || basis.unnamed_near === true;
  if (!rustNear) out.push(t('outbreak.forecast.why.noRust'));
  return out;
}

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
