import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { resultLabelKey } from '../lib/diagnosis-labels.ts';
import { formatConfidence } from '../lib/format.ts';
import { AnalysisPhoto } from './AnalysisPhoto.tsx';

/**
 * Every leaf photo of a field answer (docs/decisions/0040), each with the model's own answer for it:
 * the farmer's result and the expert's review dialog show them under the first photo.
 */
export function FieldPhotos({ result, size = 88 }: { result: AnalysisResult; size?: number }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="field-photos">
      <Text size="sm" fw={500}>
        {t('analysis.more.fieldAnswer', { count: result.photos.length })}
      </Text>
      <Group gap="xs" align="flex-start">
        {result.photos.map((p) => (
          <Stack key={p.position} gap={2} align="center" w={size}>
            <AnalysisPhoto
              id={result.id}
              position={p.position}
              imageUrl={p.url}
              size={size}
              alt={t('analysis.more.photoAlt', { n: p.position + 1 })}
            />
            <Text size="xs" ta="center" lh={1.2}>
              {t(resultLabelKey({ outcome: 'diagnosis', rust_class: p.rust_class, crop: result.crop }))}{' '}
              {formatConfidence(p.confidence)}
            </Text>
          </Stack>
        ))}
      </Group>
    </Stack>
  );
}
