import { Box, SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { ExpertReviewPanel } from '../../../components/review/ExpertReviewPanel.tsx';
import { useMarkResultSeen } from '../../../api/analysis.ts';
import { AnalysisPhoto } from '../../../components/AnalysisPhoto.tsx';
import { ResultCard } from './ResultCard.tsx';

/**
 * A farmer's result: the photo (with where the model looked) beside the model's answer (above it on a
 * phone), then the expert's. Showing it marks its notification read: the farmer is looking at it.
 */
export function ResultWithReview({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  useMarkResultSeen(result.id);
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Box style={{ justifySelf: 'center' }}>
          <AnalysisPhoto
            id={result.id}
            imageUrl={result.image_url}
            heatmapUrl={result.heatmap_url}
            showToggle
            size={220}
            alt={t('analysis.history.photoAlt')}
          />
        </Box>
        <ResultCard result={result} />
      </SimpleGrid>
      <ExpertReviewPanel analysis={result} />
    </Stack>
  );
}
