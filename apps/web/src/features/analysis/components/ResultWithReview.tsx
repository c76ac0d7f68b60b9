import { Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { ExpertReviewPanel } from '../../review/components/ExpertReviewPanel.tsx';
import { AnalysisPhoto } from './AnalysisPhoto.tsx';
import { ResultCard } from './ResultCard.tsx';

/** A farmer's result: the photo (with where the model looked), the model's answer and the expert's. */
export function ResultWithReview({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Group justify="center">
        <AnalysisPhoto
          id={result.id}
          imageUrl={result.image_url}
          heatmapUrl={result.heatmap_url}
          showToggle
          size={220}
          alt={t('analysis.history.photoAlt')}
        />
      </Group>
      <ResultCard result={result} />
      <ExpertReviewPanel analysis={result} />
    </Stack>
  );
}
