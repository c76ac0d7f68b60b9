import { Alert, Stack, Text } from '@mantine/core';
import { IconUserCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * An unsure answer with no leaf left to add (decision 0048): every analysis is in the experts' review
 * queue, unsure ones first, and a verdict reaches the farmer as a notification (and the SMS they chose).
 * Says so, when to expect it, and what to do meanwhile. `queued`: made on the phone, not sent yet.
 */
export function ExpertWait({ photos, queued }: { photos: number; queued: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="blue"
      icon={<IconUserCheck />}
      title={t('analysis.expert.waitTitle')}
      data-testid="result-expert-wait"
    >
      <Stack gap={6}>
        <Text size="sm">{t(queued ? 'analysis.expert.queued' : 'analysis.expert.sent', { count: photos })}</Text>
        <Text size="sm" fw={600}>
          {t('analysis.expert.meanwhile')}
        </Text>
      </Stack>
    </Alert>
  );
}
