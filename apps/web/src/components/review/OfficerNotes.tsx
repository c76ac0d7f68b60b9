import { Alert, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useReview } from '../../api/review.ts';
import { formatDateTime } from '../../lib/format.ts';

/**
 * What extension officers did about this photo's farmer (calls and visits, with their notes), as the
 * server shows them to experts on the case; nothing when there is none.
 */
export function OfficerNotes({ analysisId }: { analysisId: number }) {
  const { t } = useTranslation();
  const notes = useReview(analysisId).data?.officer_notes ?? [];
  if (notes.length === 0) return null;
  return (
    <Alert color="blue" variant="light" title={t('review.officerNotes')} data-testid="officer-notes">
      <Stack gap={4}>
        {notes.slice(0, 5).map((n) => (
          <Text key={n.id} size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600} size="sm">
              {t(`review.officerNote.${n.kind}`, { who: n.officer, when: formatDateTime(n.at) })}:
            </Text>{' '}
            {n.note}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
