import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldAccuracyFigures } from '@kutu/contract';
import { useFieldAccuracy } from '../../api/review.ts';
import { Figure, pct } from './figures.tsx';
import { ConfusionTable } from './ConfusionTable.tsx';

// Loaded on its own: the review queue's route is at its byte budget (bench/bundle-size.ts).
const SeverityFigures = lazy(() => import('./SeverityFigures.tsx'));

/** The agreement figure as one line, e.g. "75.0% of 12" (for the model versions table). */
export function agreementLine(f: Pick<FieldAccuracyFigures, 'agreement' | 'confident_reviewed'> | undefined) {
  return f && f.confident_reviewed > 0 ? `${pct(f.agreement)} / ${f.confident_reviewed}` : '–';
}

/** Field accuracy per model version, measured by expert verdicts on farmers' photos. */
export function FieldAccuracy() {
  const { t } = useTranslation();
  const { data } = useFieldAccuracy();
  return (
    <Paper withBorder p="md" radius="md" data-testid="field-accuracy">
      <Stack>
        <div>
          <Title order={3}>{t('review.field.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('review.field.intro')}
          </Text>
        </div>
        {data?.versions.length === 0 && <Text size="sm">{t('review.field.none')}</Text>}
        {data?.versions.map((v) => (
          <Stack key={v.model_version} gap="xs" data-testid={`field-${v.model_version}`}>
            <Text fw={600}>{v.model_version}</Text>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Figure label={t('review.field.reviewed')} value={`${v.reviewed} / ${v.analyses}`} />
              <Figure label={t('review.field.agreement')} value={pct(v.agreement)} testId="field-agreement" />
              <Figure label={t('review.field.confident')} value={v.confident_reviewed} />
              <Figure label={t('review.field.unsureRate')} value={pct(v.unsure_rate)} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {Object.entries(v.by_crop)
                .map(([crop, f]) =>
                  t('review.field.cropLine', {
                    crop: t(`review.crop.${crop}`),
                    reviewed: f.reviewed,
                    agreement: pct(f.agreement),
                    unsure: pct(f.unsure_rate),
                  }),
                )
                .join(' · ')}
            </Text>
            {v.reviewed > 0 && data && (
              <ConfusionTable
                label={t('review.field.matrix')}
                rows={data.model_answers}
                columns={data.verdicts}
                name={(k) => t(`review.short.${k}`)}
                counts={v.confusion}
              />
            )}
          </Stack>
        ))}
        {data?.severity && (
          <Suspense fallback={null}>
            <SeverityFigures severity={data.severity} />
          </Suspense>
        )}
      </Stack>
    </Paper>
  );
}
