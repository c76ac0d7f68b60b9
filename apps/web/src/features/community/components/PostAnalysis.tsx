import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CommunityPost, CropType } from '@kutu/contract';
import { formatConfidence } from '../../../lib/format.ts';
import { resultColor, resultHeading } from '../../../lib/diagnosis-labels.ts';

/** What the analysis the farmer linked to the post found: its heading and confidence. */
export function PostAnalysis({
  analysis,
  crop,
}: {
  analysis: NonNullable<CommunityPost['analysis']>;
  crop?: CropType;
}) {
  const { t } = useTranslation();
  // The rust is named for the post's crop (bean rust on beans).
  const heading = resultHeading(t, { ...analysis, crop: crop?.toLowerCase() });
  return (
    <Group gap={6} data-testid="post-analysis" wrap="wrap">
      <Text size="xs" c="dimmed">
        {t('community.linkedAnalysis')}
      </Text>
      <Badge variant="light" color={resultColor(analysis)} style={{ textTransform: 'none' }}>
        {heading}
        {analysis.outcome === 'diagnosis' ? ` · ${formatConfidence(analysis.confidence)}` : ''}
      </Badge>
    </Group>
  );
}
