import { Suspense, useState } from 'react';
import { Box, Center, Image, Loader, Stack } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAnalysisHeatmap, useAnalysisImage } from '../api/analysis.ts';
import { optionalLazy } from './optional-lazy.ts';
import { RustSpotsLine, RustSpotsOverlay, type ShownSpots } from './RustSpots.tsx';

// Out of a farmer's first download: only experts are shown the switch (decision 0016). Optional: a photo
// opened offline before its code was cached shows without it rather than failing the screen.
const { Component: HeatmapSwitch } = optionalLazy(() => import('./HeatmapSwitch.tsx'));

/**
 * The stored photo of an analysis (loaded with the bearer token). With `heatmapUrl` (and room for
 * it, `showToggle`) a switch lays the model's heatmap over the photo: where the model looked.
 */
export function AnalysisPhoto({
  id,
  imageUrl,
  size,
  alt,
  heatmapUrl = null,
  showToggle = false,
  position = 0,
  spots = null,
}: {
  id: number;
  /** Which photo of a field answer (0: the first, the analysis's own). */
  position?: number;
  imageUrl: string;
  size: number;
  alt: string;
  heatmapUrl?: string | null;
  showToggle?: boolean;
  /** The rust-coloured spots to outline (`spotsOfResult`), with the line saying what they are. */
  spots?: ShownSpots | null;
}) {
  const { t } = useTranslation();
  const [overlay, setOverlay] = useState(false);
  const img = useAnalysisImage(id, imageUrl, position);
  const heatmap = useAnalysisHeatmap(id, heatmapUrl, overlay);
  if (img.isPending) {
    return (
      <Center w={size} h={size}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (img.isError) {
    return (
      <Center w={size} h={size} bg="gray.1" style={{ borderRadius: 8 }} title={t('analysis.photoUnavailable')}>
        <IconPhotoOff size={size / 3} color="gray" />
      </Center>
    );
  }
  return (
    <PhotoWithHeatmap
      photoSrc={img.data}
      heatmapSrc={heatmap.data ?? null}
      hasHeatmap={heatmapUrl !== null}
      overlay={overlay}
      onOverlay={setOverlay}
      size={size}
      alt={alt}
      showToggle={showToggle}
      spots={spots}
    />
  );
}

/**
 * A photo with the switch that lays the heatmap over it (same box; both keep the photo's aspect ratio, so
 * `cover` crops them alike). The server's stored analyses and the phone's offline answers both use it.
 */
export function PhotoWithHeatmap({
  photoSrc,
  heatmapSrc,
  hasHeatmap,
  overlay,
  onOverlay,
  size,
  alt,
  showToggle,
  spots = null,
}: {
  photoSrc: string;
  /** The overlay image once loaded (null while it is not). */
  heatmapSrc: string | null;
  hasHeatmap: boolean;
  overlay: boolean;
  onOverlay: (on: boolean) => void;
  size: number;
  alt: string;
  showToggle: boolean;
  spots?: ShownSpots | null;
}) {
  const { t } = useTranslation();
  const photo = (
    <Box pos="relative" w={size} h={size}>
      <Image src={photoSrc} alt={alt} w={size} h={size} fit="cover" radius="md" />
      {overlay && heatmapSrc && (
        <Image
          src={heatmapSrc}
          alt={t('analysis.heatmap.alt')}
          w={size}
          h={size}
          fit="cover"
          radius="md"
          pos="absolute"
          top={0}
          left={0}
          style={{ opacity: 0.6, pointerEvents: 'none' }}
          data-testid="heatmap-overlay"
        />
      )}
      {spots && <RustSpotsOverlay spots={spots.spots} size={size} />}
    </Box>
  );
  const toggle = showToggle && hasHeatmap;
  if (!toggle && !spots) return photo;
  return (
    <Stack gap={6} align="center">
      {photo}
      {spots && <RustSpotsLine share={spots.share} width={Math.max(size, 280)} />}
      {toggle && (
        <Suspense fallback={null}>
          <HeatmapSwitch checked={overlay} onChange={onOverlay} />
        </Suspense>
      )}
    </Stack>
  );
}
