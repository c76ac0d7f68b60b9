import { useMemo, useState } from 'react';
import { Alert, Center, Group, Loader, NativeSelect, Stack, Text } from '@mantine/core';
import { IconCloudRain } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { geoMercator, geoPath } from 'd3-geo';
import { useTranslation } from 'react-i18next';
import type { ForecastCrop, RiskLevel } from '@kutu/contract';
import { useForecastWeek } from '../../../api/forecast.ts';
import { formatDate } from '../../../lib/format.ts';
import type { Country } from '../../../lib/geo/geo.ts';
import { boundariesQuery } from '../lib/boundaries-query.ts';
import { parentOf } from '../lib/newer-districts.ts';
import { ForecastReasons } from './ForecastReasons.tsx';

const WIDTH = 400;
const HEIGHT = 440;
/** Risk shades: no weather is hatched grey, never the colour of low. */
export const RISK_FILLS: Record<RiskLevel, string> = {
  unknown: '#ced4da',
  low: '#d3f9d8',
  moderate: '#ffd43b',
  high: '#e03131',
};
const ORDER: Record<RiskLevel, number> = { unknown: -1, low: 0, moderate: 1, high: 2 };
const WORST = 'worst';

/**
 * The outbreak map's "next 7 days" layer (decision 0100): each district shaded by its rust risk on a chosen
 * day or the week's worst, from the latest forecast run; kept on the phone with the map (saved queries).
 */
export function ForecastLayer({ crop, country }: { crop: ForecastCrop; country: Country }) {
  const { t } = useTranslation();
  const week = useForecastWeek(crop);
  const outlines = useQuery(boundariesQuery(country));
  const [day, setDay] = useState<string>(WORST);
  // The district whose reasons are shown: picked from the list or by tapping the map ('' for none).
  const [picked, setPicked] = useState('');
  const days = week.data?.districts[0]?.days.map((d) => d.day) ?? [];
  const levels = useMemo(() => {
    const out = new Map<string, RiskLevel>();
    for (const d of week.data?.districts ?? []) {
      const level = day === WORST ? d.worst : (d.days.find((x) => x.day === day)?.level ?? 'unknown');
      // A newer district is drawn on its parent's shape: the shape takes the higher of the two.
      const code = parentOf.get(d.code) ?? d.code;
      const before = out.get(code);
      if (!before || ORDER[level] > ORDER[before]) out.set(code, level);
    }
    return out;
  }, [week.data, day]);
  const shapes = useMemo(() => {
    if (!outlines.data) return [];
    const collection = { type: 'FeatureCollection' as const, features: [...outlines.data] };
    const path = geoPath(geoMercator().fitSize([WIDTH, HEIGHT], collection));
    return outlines.data.map((f) => ({ code: f.properties.code, name: f.properties.name, d: path(f) ?? '' }));
  }, [outlines.data]);

  if ((week.isPending && week.fetchStatus !== 'paused') || outlines.isPending) {
    return (
      <Center p="xl">
        <Loader />
      </Center>
    );
  }
  if (!week.data || !outlines.data) {
    return (
      <Alert color="red" data-testid="forecast-error">
        {t('outbreak.forecast.loadError')}
      </Alert>
    );
  }
  const unknown = week.data.weather.state === 'unknown';
  const age = week.data.weather.age_hours;
  const high = shapes.filter((s) => levels.get(s.code) === 'high');
  const choices = week.data.districts
    .filter((d) => d.code.startsWith(`${country}-`))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Stack gap="sm" data-testid="forecast-layer">
      <NativeSelect
        label={t('outbreak.forecast.day')}
        value={day}
        onChange={(e) => setDay(e.currentTarget.value)}
        data={[
          { value: WORST, label: t('outbreak.forecast.worst') },
          ...days.map((d) => ({ value: d, label: formatDate(`${d}T12:00:00Z`, 'UTC') })),
        ]}
        data-testid="forecast-day"
      />
      {unknown ? (
        <Alert color="gray" icon={<IconCloudRain size={18} />} data-testid="forecast-unknown">
          {t('outbreak.forecast.unknown')}
        </Alert>
      ) : (
        age !== null && (
          <Text size="sm" c="dimmed" data-testid="forecast-age">
            {Math.round(age) === 0
              ? t('outbreak.forecast.ageNow')
              : t('outbreak.forecast.age', { count: Math.round(age) })}
          </Text>
        )
      )}
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={t('outbreak.forecast.label', { crop: t(`outbreak.crops.${crop}`) })}
        data-testid="forecast-map"
        style={{ width: '100%', height: 'auto', maxHeight: '70vh', display: 'block' }}
      >
        {shapes.map((s) => {
          const level = levels.get(s.code) ?? 'unknown';
          return (
            <path
              key={s.code}
              d={s.d}
              fill={RISK_FILLS[level]}
              stroke="#868e96"
              strokeWidth={0.5}
              data-code={s.code}
              data-risk={level}
              onClick={() => setPicked(s.code)}
              style={{ cursor: 'pointer' }}
            >
              <title>{`${s.name}: ${t(`outbreak.forecast.levels.${level}`)}`}</title>
            </path>
          );
        })}
      </svg>
      <Group gap="md" wrap="wrap">
        {(['high', 'moderate', 'low', 'unknown'] as const).map((l) => (
          <Group key={l} gap={6} wrap="nowrap">
            <span
              aria-hidden
              style={{ width: 14, height: 14, background: RISK_FILLS[l], border: '1px solid #868e96' }}
            />
            <Text size="sm">{t(`outbreak.forecast.levels.${l}`)}</Text>
          </Group>
        ))}
      </Group>
      <Text size="sm" data-testid="forecast-high">
        {high.length
          ? t('outbreak.forecast.highList', { names: high.map((s) => s.name).join(', ') })
          : t('outbreak.forecast.noHigh')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('outbreak.forecast.basis')}
      </Text>
      <NativeSelect
        label={t('outbreak.forecast.why.pick')}
        value={picked}
        onChange={(e) => setPicked(e.currentTarget.value)}
        data={[
          { value: '', label: t('outbreak.forecast.why.pickNone') },
          ...choices.map((d) => ({ value: d.code, label: d.name })),
        ]}
        data-testid="forecast-district"
      />
      {picked && <ForecastReasons code={picked} crop={crop} />}
    </Stack>
  );
}
