import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconUserQuestion } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useLeafCheck, useReview } from '../../../api/review.ts';

/**
 * "No leaf found" on a photo that shows a leaf (a badly blighted leaf, for example): the farmer sends it
 * to an expert with one button (docs/decisions/0049). Once sent, it says so.
 */
export function LeafCheck({ analysisId }: { analysisId: number }) {
  const { t } = useTranslation();
  const review = useReview(analysisId);
  const send = useLeafCheck();
  const sent = Boolean(review.data?.asked_at) || send.isSuccess;
  if (review.data?.status === 'reviewed') return null;
  return (
    <Alert color="blue" icon={<IconUserQuestion />} p="sm" data-testid="leaf-check">
      {sent ? (
        <Text size="sm" data-testid="leaf-check-sent">
          {t('analysis.leafCheck.sent')}
        </Text>
      ) : (
        <Stack gap="xs">
          <Text size="sm">{t('analysis.leafCheck.intro')}</Text>
          <Button
            size="sm"
            variant="light"
            style={{ alignSelf: 'flex-start' }}
            loading={send.isPending}
            onClick={() => send.mutate(analysisId, { onError: (err) => notifyError(errorMessage(err)) })}
          >
            {t('analysis.leafCheck.send')}
          </Button>
        </Stack>
      )}
    </Alert>
  );
}
