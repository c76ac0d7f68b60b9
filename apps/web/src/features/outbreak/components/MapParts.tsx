import { SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';
import { Anchor, Box, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Country, DistrictFeature } from '../../../lib/geo/geo.ts';
import { districtByCode } from '@kutu/contract/districts';
import { parentOf } from '../lib/newer-districts.ts';
import { BELOW_MIN_VALUE, countLabel, hasCases, type Level, LEVEL_FILLS, ZERO } from '../lib/shading.ts';
import type { DistrictCounts } from './DistrictMap.tsx';

const LEVELS: Level[] = [0, 1, 2, 3, 4];

/** What each shade and the ring mean. */
export function MapLegend({ days }: { days: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="map-legend">
      <Text size="sm" fw={500}>
        {t('outbreak.legend.title', { days })}
      </Text>
      <Group gap="sm">
        {LEVELS.map((level) => (
          <Group key={level} gap={4} wrap="nowrap">
            <Box w={16} h={16} bg={LEVEL_FILLS[level]} style={{ border: '1px solid #868e96' }} aria-hidden />
            <Text size="xs">{t(`outbreak.legend.level${level}`, SMALL_COUNT_WORDS)}</Text>
          </Group>
        ))}
        <Group gap={4} wrap="nowrap">
          <svg width={16} height={16} aria-hidden="true">
            <circle cx={8} cy={8} r={5} fill="none" stroke="#5f3dc4" strokeWidth={2} />
          </svg>
          <Text size="xs">{t('outbreak.legend.reported')}</Text>
        </Group>
      </Group>
    </Stack>
  );
}

interface DistrictListProps {
  features: readonly DistrictFeature[];
  counts: ReadonlyMap<string, DistrictCounts>;
  selected: string | null;
  onSelect: (code: string) => void;
}

/**
 * The map as a list: every district with a case, most confirmed first, each a full-width button (44 px
 * high) for a thumb at 390 px and for screen readers. Districts with no case are left out. Give it the
 * newer districts too (withNewerDistricts): each says it is drawn inside its parent.
 */
export function DistrictList({ features, counts, selected, onSelect }: DistrictListProps) {
  const { t } = useTranslation();
  const rank = (c: DistrictCounts) => (c.confirmed.below_min ? BELOW_MIN_VALUE : (c.confirmed.count ?? 0));
  const rows = features
    .map((f) => ({ f, c: counts.get(f.properties.code) ?? { confirmed: ZERO, reported: ZERO } }))
    .filter(({ c }) => hasCases(c.confirmed) || hasCases(c.reported))
    .sort((a, b) => rank(b.c) - rank(a.c) || a.f.properties.name.localeCompare(b.f.properties.name));
  if (rows.length === 0) return null;
  return (
    <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="district-list">
      {rows.map(({ f, c }) => (
        <li key={f.properties.code}>
          <UnstyledButton
            onClick={() => onSelect(f.properties.code)}
            aria-pressed={f.properties.code === selected}
            w="100%"
            mih={44}
            px="xs"
            py={6}
            style={{
              borderBottom: '1px solid var(--mantine-color-gray-3)',
              background: f.properties.code === selected ? 'var(--mantine-color-blue-0)' : undefined,
            }}
            data-testid="district-row"
          >
            <Group justify="space-between" wrap="nowrap">
              <Stack gap={0}>
                <Text size="sm" fw={500}>
                  {f.properties.name}
                </Text>
                {parentOf.has(f.properties.code) && (
                  <Text size="xs" c="dimmed" data-testid="drawn-in-parent">
                    {t('outbreak.map.drawnInParent', {
                      parent: districtByCode(parentOf.get(f.properties.code) ?? '')?.name,
                    })}
                  </Text>
                )}
              </Stack>
              <Text size="sm" ta="right">
                {t('outbreak.list.counts', {
                  confirmed: countLabel(c.confirmed, t('outbreak.fewerThanMin', SMALL_COUNT_WORDS)),
                  reported: countLabel(c.reported, t('outbreak.fewerThanMin', SMALL_COUNT_WORDS)),
                })}
              </Text>
            </Group>
          </UnstyledButton>
        </li>
      ))}
    </Stack>
  );
}

/** The boundaries' sources, as SOURCES.md asks (the Kenya line is required by the ODbL). */
export function MapAttribution({ country }: { country: Country }) {
  const { t } = useTranslation();
  return (
    <Text size="xs" c="dimmed" data-testid="map-attribution">
      {country === 'KE' ? (
        <>
          {t('outbreak.attribution.kenya')}{' '}
          <Anchor href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener noreferrer" size="xs">
            {t('outbreak.attribution.osmLink')}
          </Anchor>
        </>
      ) : (
        t('outbreak.attribution.uganda')
      )}
    </Text>
  );
}
