import { useState } from 'react';
import { Box, Center, Image, Loader, Stack, Switch } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAnalysisHeatmap, useAnalysisImage } from '../api/analysis.ts';

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
}: {
  id: number;
  /** Which photo of a field answer (0: the first, the analysis's own). */
  position?: number;
  imageUrl: string;
  size: number;
  alt: string;
  heatmapUrl?: string | null;
  showToggle?: boolean;
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
  const photo = (
    <Box pos="relative" w={size} h={size}>
      <Image src={img.data} alt={alt} w={size} h={size} fit="cover" radius="md" />
      {overlay && heatmap.data && (
        <Image
          src={heatmap.data}
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
    </Box>
  );
  if (!showToggle || !heatmapUrl) return photo;
  return (
    <Stack gap={6} align="center">
      {photo}
      <Switch
        size="sm"
        checked={overlay}
        onChange={(e) => setOverlay(e.currentTarget.checked)}
        label={t('analysis.heatmap.toggle')}
        data-testid="heatmap-toggle"
      />
    </Stack>
  );
}
