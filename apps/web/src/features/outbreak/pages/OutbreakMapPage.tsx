import { lazy, useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Loader,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OutbreakCrop } from '@kutu/contract';
import { outbreakCrops, SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';
import { useSession } from '../../../lib/use-session.ts';
import { Deferred } from '../../../components/OnDemand.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/format.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { session } from '../../../lib/session.ts';
import { outbreakMapQuery, useOutbreakMap } from '../../../api/outbreak.ts';
import { type DistrictCounts, DistrictMap } from '../components/DistrictMap.tsx';
import { DistrictList, MapAttribution, MapLegend } from '../components/MapParts.tsx';
import { withNewerDistricts } from '../lib/newer-districts.ts';
import { boundariesQuery } from '../lib/boundaries-query.ts';
import { type Country, countries } from '../../../lib/geo/geo.ts';
import { hasCases, ZERO } from '../lib/shading.ts';
import { windowDays } from '../lib/window.ts';

// The expert's table (with its pagination) loads only when its tab opens.
// A district's detail opens on a choice (a tap on the map or the list).
const DistrictDetail = lazy(() =>
  import('../components/DistrictDetail.tsx').then((m) => ({ default: m.DistrictDetail })),
);
const ForecastLayer = lazy(() => import('../components/ForecastLayer.tsx').then((m) => ({ default: m.ForecastLayer })));
const DistrictTable = lazy(() => import('../components/DistrictTable.tsx').then((m) => ({ default: m.DistrictTable })));

const DEFAULT_CROP: OutbreakCrop = 'maize';

/** The country of the signed-in user's district (its code starts with it), Uganda otherwise. */
const homeCountry = (district: string | null | undefined): Country => (district?.startsWith('KE-') ? 'KE' : 'UG');

/**
 * The map's data and the home country's outlines start with the page's code (router.tsx); the other
 * country's follow, so the service worker keeps both for offline use (12 and 23 KiB brotli: the
 * boundaries are no longer in the first visit's precache, decision 0037).
 */
export function startQueries() {
  void queryClient.prefetchQuery(outbreakMapQuery(DEFAULT_CROP));
  const home = homeCountry(session.user()?.district);
  void queryClient
    .prefetchQuery(boundariesQuery(home))
    .then(() => queryClient.prefetchQuery(boundariesQuery(home === 'UG' ? 'KE' : 'UG')));
}

function OutbreakMap({ crop, country }: { crop: OutbreakCrop; country: Country }) {
  const { t } = useTranslation();
  const map = useOutbreakMap(crop);
  const outlines = useQuery(boundariesQuery(country));
  const [selected, setSelected] = useState<string | null>(null);
  const byCode = useMemo(() => {
    const counts = new Map<string, DistrictCounts & { alert: boolean }>();
    for (const d of map.data?.districts ?? []) counts.set(d.code, d);
    return counts;
  }, [map.data]);

  // Offline with no saved copy of this crop's counts, the query is paused: say so rather than spin.
  const waiting = (map.isPending && map.fetchStatus !== 'paused') || outlines.isPending;
  if (waiting) {
    return (
      <Center p="xl">
        <Loader />
      </Center>
    );
  }
  if (!outlines.data || !map.data) {
    // The server's refusal (403, 404…) in its own words: only a failed request is a connection problem.
    const refused = [map.error, outlines.error].find((e) => e instanceof ApiError && e.status > 0);
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="map-error">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{refused ? errorMessage(refused) : t('outbreak.loadError')}</Text>
          <Button
            size="xs"
            variant="light"
            onClick={() => {
              void map.refetch();
              void outlines.refetch();
            }}
          >
            {t('outbreak.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }

  const features = outlines.data;
  // Districts newer than the boundary file, each on its parent's shape (decision 0052).
  const listed = withNewerDistricts(features);
  const inCountry = listed.filter((f) => byCode.has(f.properties.code));
  const anyConfirmed = inCountry.some((f) => hasCases(byCode.get(f.properties.code)!.confirmed));
  const countryName = t(`outbreak.countries.${country}`);
  const picked = selected ? listed.find((f) => f.properties.code === selected) : undefined;
  const data = map.data;

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" data-testid="map-date">
        {data.data_as_of
          ? t('outbreak.dataAsOf', { when: formatDate(data.data_as_of, 'UTC') })
          : t('outbreak.noDataYet', SMALL_COUNT_WORDS)}
        {' · '}
        {t('outbreak.window', { from: formatDate(data.from, 'UTC'), to: formatDate(data.to, 'UTC') })}
      </Text>
      {data.demo && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} data-testid="map-demo">
          <Badge color="yellow" mr="xs">
            {t('outbreak.demoBadge')}
          </Badge>
          {t('outbreak.demo')}
        </Alert>
      )}
      {!anyConfirmed && (
        <Alert color="green" icon={<IconInfoCircle size={18} />} data-testid="map-empty">
          {t('outbreak.empty', { crop: t(`outbreak.crops.${crop}`), country: countryName })}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="xs">
          <DistrictMap
            features={features}
            counts={byCode}
            selected={selected}
            onSelect={setSelected}
            label={t('outbreak.map.label', { country: countryName })}
          />
          <MapLegend days={windowDays(data)} />
          <MapAttribution country={country} />
        </Stack>
        <Stack gap="sm">
          {picked && (
            <Deferred>
              <DistrictDetail
                key={`${picked.properties.code}-${crop}`}
                code={picked.properties.code}
                name={picked.properties.name}
                crop={crop}
                days={windowDays(data)}
                counts={byCode.get(picked.properties.code) ?? { confirmed: ZERO, reported: ZERO }}
                alert={byCode.get(picked.properties.code)?.alert ?? false}
                onClose={() => setSelected(null)}
              />
            </Deferred>
          )}
          {inCountry.length > 0 && (
            <Title order={2} size="h4">
              {t('outbreak.list.title')}
            </Title>
          )}
          <DistrictList features={listed} counts={byCode} selected={selected} onSelect={setSelected} />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

/** Outbreak watch (decision 0035): where rust has been confirmed, for farmers and experts. */
export default function OutbreakMapPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [crop, setCrop] = useState<OutbreakCrop>(DEFAULT_CROP);
  const [country, setCountry] = useState<Country>(() => homeCountry(user?.district));
  const [layer, setLayer] = useState<'now' | 'next'>('now');
  const filters = (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
      <Box>
        <Text size="sm" fw={500} id="outbreak-crop">
          {t('outbreak.crop')}
        </Text>
        <SegmentedControl
          fullWidth
          aria-labelledby="outbreak-crop"
          value={crop}
          onChange={(v) => setCrop(v as OutbreakCrop)}
          data={outbreakCrops.map((c) => ({ value: c, label: t(`outbreak.crops.${c}`) }))}
        />
      </Box>
      <Box>
        <Text size="sm" fw={500} id="outbreak-country">
          {t('outbreak.country')}
        </Text>
        <SegmentedControl
          fullWidth
          aria-labelledby="outbreak-country"
          value={country}
          onChange={(v) => setCountry(v as Country)}
          data={countries.map((c) => ({ value: c, label: t(`outbreak.countries.${c}`) }))}
        />
      </Box>
    </SimpleGrid>
  );

  // The "next 7 days" layer (decision 0100): the week's rust forecast, for maize and beans.
  const mapOrForecast = (
    <Stack gap="sm">
      <Box>
        <Text size="sm" fw={500} id="outbreak-layer">
          {t('outbreak.forecast.layer')}
        </Text>
        <SegmentedControl
          fullWidth
          aria-labelledby="outbreak-layer"
          value={layer}
          onChange={(v) => setLayer(v as 'now' | 'next')}
          data={[
            { value: 'now', label: t('outbreak.forecast.now') },
            { value: 'next', label: t('outbreak.forecast.next') },
          ]}
          data-testid="outbreak-layer"
        />
      </Box>
      {layer === 'now' ? (
        <OutbreakMap key={country} crop={crop} country={country} />
      ) : crop === 'other' ? (
        <Text size="sm">{t('outbreak.forecast.otherCrop')}</Text>
      ) : (
        <Deferred>
          <ForecastLayer key={`${country}-${crop}`} crop={crop} country={country} />
        </Deferred>
      )}
    </Stack>
  );

  return (
    <Stack gap="md" maw={1100}>
      <Title order={1} size="h2">
        {t('outbreak.title')}
      </Title>
      <Text c="dimmed">{t('outbreak.intro')}</Text>
      {filters}
      {user?.role === 'expert' ? (
        <Tabs defaultValue="map" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="map">{t('outbreak.tabs.map')}</Tabs.Tab>
            <Tabs.Tab value="table">{t('outbreak.tabs.table')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="map" pt="md">
            {mapOrForecast}
          </Tabs.Panel>
          <Tabs.Panel value="table" pt="md">
            <Deferred>
              <DistrictTable key={`${crop}-${country}`} crop={crop} country={country} />
            </Deferred>
          </Tabs.Panel>
        </Tabs>
      ) : (
        mapOrForecast
      )}
    </Stack>
  );
}

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/outbreak-strings.ts';
