import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ModelVersions } from '../components/ModelVersions.tsx';
import { SampleCounts } from '../components/SampleCounts.tsx';
import { SampleList } from '../components/SampleList.tsx';
import { TrainingJobs } from '../components/TrainingJobs.tsx';
import { TrainingUploadForm } from '../components/TrainingUploadForm.tsx';
import { FieldAccuracy } from '../../../components/review/FieldAccuracy.tsx';

/** Model Training (expert): labelled uploads, counts, retraining jobs, model versions, field accuracy and the samples. */
export default function ModelTrainingPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('menu.modelTraining')}
      </Title>
      <TrainingUploadForm />
      <SampleCounts />
      <TrainingJobs />
      <ModelVersions />
      <FieldAccuracy />
      <SampleList />
    </Stack>
  );
}
