import { lazy } from 'react';
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ModelVersions } from '../components/ModelVersions.tsx';
import { SampleCounts } from '../components/SampleCounts.tsx';
import { SampleList } from '../components/SampleList.tsx';
import { TrainingJobs } from '../components/TrainingJobs.tsx';
import { FieldAccuracy } from '../../../components/review/FieldAccuracy.tsx';
import { FieldFigures } from '../../../components/review/FieldFigures.tsx';
import { Deferred } from '../../../components/OnDemand.tsx';
// Its strings come with it, not with a farmer's screens (lib/locale-parts.ts); the router waits for them.
export { screenStringsReady } from '../../../lib/staff-strings.ts';

// The upload form and its photo shrinker load just after the figures (components/OnDemand.tsx).
const TrainingUploadForm = lazy(() =>
  import('../components/TrainingUploadForm.tsx').then((m) => ({ default: m.TrainingUploadForm })),
);

/** Model Training (expert): labelled uploads, counts, retraining jobs, model versions, field accuracy and figures, and the samples. */
export default function ModelTrainingPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('menu.modelTraining')}
      </Title>
      <Deferred>
        <TrainingUploadForm />
      </Deferred>
      <SampleCounts />
      <TrainingJobs />
      <ModelVersions />
      <FieldAccuracy />
      <FieldFigures />
      <SampleList />
    </Stack>
  );
}
