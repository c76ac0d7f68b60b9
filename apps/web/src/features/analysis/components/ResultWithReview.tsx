import { Box, SimpleGrid, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { ExpertReviewPanel } from '../../../components/review/ExpertReviewPanel.tsx';
import { useCurrentAnalysis, useMarkResultSeen } from '../../../api/analysis.ts';
import { AnalysisPhoto } from '../../../components/AnalysisPhoto.tsx';
import { FieldPhotos } from '../../../components/FieldPhotos.tsx';
import { spotsOfResult } from '../../../components/RustSpots.tsx';
import { useSessionField } from '../../../lib/use-session.ts';
import { FollowUpNote } from './FollowUpNote.tsx';
import { MorePhotos } from './MorePhotos.tsx';
import { ResultCard } from './ResultCard.tsx';
import { ExpertAnswer } from './ExpertAnswer.tsx';
import { LeafCheck } from './LeafCheck.tsx';

/**
 * A farmer's result: the photo (with the rust-coloured spots circled on a confident rust answer) beside the
 * answer (above it on a phone): the expert's once there is one, with the model's below it as what the model
 * said (docs/decisions/0049), a follow-up photo's comparison included. Showing it marks its notification read: the farmer is looking at it.
 */
export function ResultWithReview({ result: given }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  const role = useSessionField((user) => user?.role ?? null);
  // The field answer once the farmer adds photos of other leaves (MorePhotos).
  const result = useCurrentAnalysis(given);
  useMarkResultSeen(result.id);
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Box style={{ justifySelf: 'center' }}>
          <AnalysisPhoto
            id={result.id}
            imageUrl={result.image_url}
            heatmapUrl={result.heatmap_url}
            // The model's heatmap is for experts (decision 0054); a farmer sees the rust-coloured spots.
            showToggle={role === 'expert'}
            spots={spotsOfResult(result)}
            size={220}
            alt={t('analysis.history.photoAlt')}
          />
        </Box>
        <Stack gap="sm">
          {/* The expert's answer leads; Kutu's comparison of a follow-up photo is the model's, below it. */}
          {result.expert_answer && <ExpertAnswer result={result} answer={result.expert_answer} />}
          {result.expert_answer && (
            <Title order={3} size="h5" data-testid="model-said">
              {t('analysis.expert.modelSaid')}
            </Title>
          )}
          <FollowUpNote result={result} />
          <ResultCard result={result} />
          {result.outcome === 'not_leaf' && !result.expert_answer && <LeafCheck analysisId={result.id} />}
        </Stack>
      </SimpleGrid>
      {result.photos.length > 1 && <FieldPhotos result={result} />}
      <MorePhotos result={result} />
      <ExpertReviewPanel analysis={result} />
    </Stack>
  );
}
