import { lazy } from 'react';
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ModelVersions } from '../components/ModelVersions.tsx';
import { SampleCounts } from '../components/SampleCounts.tsx';
import { TrainingJobs } from '../components/TrainingJobs.tsx';
import { Deferred } from '../../../components/OnDemand.tsx';
// Its strings come with it, not with a farmer's screens (lib/locale-parts.ts); the router waits for them.
export { screenStringsReady } from '../../../lib/staff-strings.ts';

// The upload form and its photo shrinker, the field figures and the samples' list load just after the counts
// and jobs (components/OnDemand.tsx): with them the page was over the byte budget.
const TrainingUploadForm = lazy(() =>
  import('../components/TrainingUploadForm.tsx').then((m) => ({ default: m.TrainingUploadForm })),
);
const FieldAccuracy = lazy(() =>
  import('../../../components/review/FieldAccuracy.tsx').then((m) => ({ default: m.FieldAccuracy })),
);
const SampleList = lazy(() => import('../components/SampleList.tsx').then((m) => ({ default: m.SampleList })));
const FieldFigures = lazy(() =>
  import('../../../components/staff/FieldFigures.tsx').then((m) => ({ default: m.FieldFigures })),
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
      <Deferred>
        <FieldAccuracy />
        <FieldFigures />
        <SampleList />
      </Deferred>
    </Stack>
  );
}
