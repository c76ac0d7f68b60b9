import { SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';
import { memo, useMemo } from 'react';
import { geoMercator, geoPath } from 'd3-geo';
import { useTranslation } from 'react-i18next';
import type { DistrictFeature } from '../../../lib/geo/geo.ts';
import { childrenOf, parentOf } from '../lib/newer-districts.ts';
import { type Count, countLabel, hasCases, type Level, LEVEL_FILLS, levelOf, ZERO } from '../lib/shading.ts';

export interface DistrictCounts {
  confirmed: Count;
  reported: Count;
}

interface DistrictMapProps {
  features: readonly DistrictFeature[];
  /** Counts by district code; a district left out has none. */
  counts: ReadonlyMap<string, DistrictCounts>;
  selected: string | null;
  onSelect: (code: string) => void;
  /** The map's accessible name. */
  label: string;
}

/** A shape's own code and those of the newer districts drawn inside it. */
const within = (code: string) => [code, ...(childrenOf.get(code) ?? [])];

const WIDTH = 400;
const HEIGHT = 440;

/**
 * The districts as SVG paths (d3-geo, Mercator fitted to the country), shaded by confirmed cases; a ring
 * marks districts with reported cases an expert has not confirmed, so the two are never mixed. The paths
 * are computed once per country, not per render. Small districts are hard to tap on a phone: the list
 * beside the map (DistrictList) is the accessible way to pick one, and the map itself is one labelled
 * image whose districts can also be reached by keyboard. A district newer than the boundary file has no
 * shape: its parent's shape carries the higher shade of the two and its ring (newer-districts.ts).
 */
export const DistrictMap = memo(function DistrictMap({
  features,
  counts,
  selected,
  onSelect,
  label,
}: DistrictMapProps) {
  const { t } = useTranslation();
  // A newer district is selected on its parent's shape.
  const shownSelected = selected ? (parentOf.get(selected) ?? selected) : null;
  const shapes = useMemo(() => {
    const collection = { type: 'FeatureCollection' as const, features: features as DistrictFeature[] };
    const projection = geoMercator().fitSize([WIDTH, HEIGHT], collection);
    const path = geoPath(projection);
    return features.map((f) => ({
      code: f.properties.code,
      name: f.properties.name,
      d: path(f) ?? '',
      centroid: path.centroid(f),
    }));
  }, [features]);

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="group"
      aria-label={label}
      data-testid="district-map"
      style={{ width: '100%', height: 'auto', maxHeight: '70vh', display: 'block', touchAction: 'manipulation' }}
    >
      {shapes.map((s) => {
        const c = counts.get(s.code) ?? { confirmed: ZERO, reported: ZERO };
        const level = Math.max(...within(s.code).map((code) => levelOf(counts.get(code)?.confirmed ?? ZERO))) as Level;
        const isSelected = s.code === shownSelected;
        return (
          <path
            key={s.code}
            d={s.d}
            role="button"
            tabIndex={0}
            aria-pressed={isSelected}
            aria-label={t('outbreak.map.districtLabel', {
              name: s.name,
              confirmed: countLabel(c.confirmed, t('outbreak.fewerThanMin', SMALL_COUNT_WORDS)),
              reported: countLabel(c.reported, t('outbreak.fewerThanMin', SMALL_COUNT_WORDS)),
            })}
            data-code={s.code}
            data-level={level}
            fill={LEVEL_FILLS[level]}
            stroke={isSelected ? '#1c7ed6' : '#868e96'}
            strokeWidth={isSelected ? 2.5 : 0.5}
            style={{ cursor: 'pointer', outline: 'none' }}
            onClick={() => onSelect(s.code)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onSelect(s.code);
              }
            }}
          >
            <title>{s.name}</title>
          </path>
        );
      })}
      {/* Reported (not yet confirmed) cases: a ring at the district's centre, never a shade. */}
      {shapes.map((s) => {
        const reported = within(s.code).some((code) => hasCases(counts.get(code)?.reported ?? ZERO));
        if (!reported || !Number.isFinite(s.centroid[0])) return null;
        return (
          <circle
            key={`r-${s.code}`}
            cx={s.centroid[0]}
            cy={s.centroid[1]}
            r={5}
            fill="none"
            stroke="#5f3dc4"
            strokeWidth={2}
            pointerEvents="none"
            data-reported={s.code}
          />
        );
      })}
      {/* The selected district's outline on top, so its neighbours do not hide it. */}
      {shapes
        .filter((s) => s.code === shownSelected)
        .map((s) => (
          <path key="selected" d={s.d} fill="none" stroke="#1c7ed6" strokeWidth={2.5} pointerEvents="none" />
        ))}
    </svg>
  );
});
