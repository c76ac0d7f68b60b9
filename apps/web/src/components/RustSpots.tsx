import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult, RustSpots } from '@kutu/contract';
import { formatPercent } from '../lib/format.ts';

/** What a photo outlines: the rust-coloured spots of a confident rust answer and the share of the leaf they make. */
export interface ShownSpots {
  spots: RustSpots;
  share: number;
}

/** The spots a result outlines: only with its severity (a confident rust answer; docs/decisions/0054). */
export const spotsOfResult = (result: Pick<AnalysisResult, 'rust_spots' | 'severity'>): ShownSpots | null =>
  result.rust_spots && result.severity ? { spots: result.rust_spots, share: result.severity.share } : null;

/**
 * Rings around the rust-coloured spots, laid over a `size`×`size` photo shown with `fit="cover"`: the boxes
 * are on the squashed square input, so they are stretched back to the photo's shape and cropped like it
 * (`slice`). Rings have a floor size so a pustule of a few pixels still gets a ring a finger can see.
 */
export function RustSpotsOverlay({ spots, size }: { spots: RustSpots; size: number }) {
  const { t } = useTranslation();
  const { side, aspect } = spots;
  const width = aspect >= 1 ? side * aspect : side;
  const height = aspect >= 1 ? side : side / aspect;
  const sx = width / side;
  const sy = height / side;
  const rings = spots.boxes.map(([x0, y0, x1, y1]) => ({
    cx: ((x0 + x1) / 2) * sx,
    cy: ((y0 + y1) / 2) * sy,
    rx: Math.max(((x1 - x0) / 2) * sx * 1.3 + 1.5, 3.5),
    ry: Math.max(((y1 - y0) / 2) * sy * 1.3 + 1.5, 3.5),
  }));
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="xMidYMid slice"
      width={size}
      height={size}
      role="img"
      aria-label={t('analysis.spots.alt', { count: rings.length })}
      style={{ position: 'absolute', top: 0, left: 0, pointerEvents: 'none', borderRadius: 8 }}
      data-testid="rust-spots"
    >
      {['rgba(0,0,0,0.6)', '#ffffff'].map((stroke, layer) => (
        <g key={stroke} fill="none" stroke={stroke} strokeWidth={layer === 0 ? 4 : 2}>
          {rings.map((r) => (
            <ellipse key={`${r.cx},${r.cy}`} {...r} vectorEffect="non-scaling-stroke" />
          ))}
        </g>
      ))}
    </svg>
  );
}

/** The line under the photo that says what the rings are. */
export function RustSpotsLine({ share, width }: { share: number; width: number }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" ta="center" maw={width} data-testid="rust-spots-line">
      {t('analysis.spots.line', { share: formatPercent(share, 0) })}
    </Text>
  );
}
