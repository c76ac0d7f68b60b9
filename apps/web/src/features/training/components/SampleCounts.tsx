import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { trainingLabels } from '@kutu/contract/enums';
import { countsQuery } from '../../../api/training.ts';
import { labelName } from './labels.ts';

/** Samples per label, plus how many arrived since the last retraining. */
export function SampleCounts() {
  const { t } = useTranslation();
  const { data } = useQuery(countsQuery());
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} aria-label={t('training.counts')}>
      {trainingLabels.map((l) => (
        <Paper key={l} withBorder p="sm" radius="md" data-testid={`count-${l}`}>
          <Text size="sm" c="dimmed">
            {labelName(t, l)}
          </Text>
          <Text fw={700} size="xl">
            {data?.[l] ?? '–'}
          </Text>
        </Paper>
      ))}
      <Paper withBorder p="sm" radius="md" data-testid="count-new">
        <Text size="sm" c="dimmed">
          {t('training.newSinceLast')}
        </Text>
        <Text fw={700} size="xl">
          {data?.new_since_last_job ?? '–'}
        </Text>
        {data && data.retrain_after > 0 && (
          <Text size="xs" c="dimmed">
            {t('training.autoAt', { n: data.retrain_after })}
          </Text>
        )}
      </Paper>
    </SimpleGrid>
  );
}
