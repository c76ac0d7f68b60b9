import type { ReactNode } from 'react';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { trainingLabels } from '@kutu/contract/enums';
import { countsQuery } from '../../../api/training.ts';
import { labelName } from './labels.ts';

function Count({
  label,
  value,
  testId,
  children,
}: {
  label: string;
  value?: number;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" radius="md" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value ?? '–'}
      </Text>
      {children}
    </Paper>
  );
}

/** Samples per label, how many arrived since the last retraining, and the farmers' photos held back for the field check. */
export function SampleCounts() {
  const { t } = useTranslation();
  const { data } = useQuery(countsQuery());
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} aria-label={t('training.counts')}>
      {trainingLabels.map((l) => (
        <Count key={l} label={labelName(t, l)} value={data?.[l]} testId={`count-${l}`} />
      ))}
      <Count label={t('training.newSinceLast')} value={data?.new_since_last_job} testId="count-new">
        {data && data.retrain_after > 0 && (
          <Text size="xs" c="dimmed">
            {t('training.autoAt', { n: data.retrain_after })}
          </Text>
        )}
      </Count>
      <Count label={t('training.heldBack')} value={data?.held_back} testId="count-held-back" />
    </SimpleGrid>
  );
}
