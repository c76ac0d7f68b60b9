import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ModelVersions } from '../components/ModelVersions.tsx';
import { SampleCounts } from '../components/SampleCounts.tsx';
import { SampleList } from '../components/SampleList.tsx';
import { TrainingJobs } from '../components/TrainingJobs.tsx';
import { TrainingUploadForm } from '../components/TrainingUploadForm.tsx';

/** Model Training (expert): labelled uploads, counts, retraining jobs, model versions and the samples. */
export default function ModelTrainingPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t('menu.modelTraining')}</Title>
      <TrainingUploadForm />
      <SampleCounts />
      <TrainingJobs />
      <ModelVersions />
      <SampleList />
    </Stack>
  );
}
