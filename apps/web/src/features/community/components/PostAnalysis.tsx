import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CommunityPost } from '@kutu/contract';
import { formatPercent } from '../../../lib/format.ts';
import { resultColor, resultHeading } from '../../../lib/diagnosis-labels.ts';

/** What the analysis the farmer linked to the post found: its heading and confidence. */
export function PostAnalysis({ analysis }: { analysis: NonNullable<CommunityPost['analysis']> }) {
  const { t } = useTranslation();
  const heading = resultHeading(analysis);
  return (
    <Group gap={6} data-testid="post-analysis" wrap="wrap">
      <Text size="xs" c="dimmed">
        {t('community.linkedAnalysis')}
      </Text>
      <Badge variant="light" color={resultColor(analysis)} style={{ textTransform: 'none' }}>
        {t(heading.key, heading.values ?? {})}
        {analysis.outcome === 'diagnosis' ? ` · ${formatPercent(analysis.confidence)}` : ''}
      </Badge>
    </Group>
  );
}
