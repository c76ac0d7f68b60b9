import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconBellRinging, IconUserCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { formatDate, formatPercent } from '../../../lib/format.ts';
import { followUpBodyKey, followUpSummary } from '../lib/follow-up.ts';

/**
 * The follow-up of a result (docs/decisions/0044): after advice to treat, the day Kutu will ask for a
 * new photo of the field; on a follow-up photo, what comparing it with the first diagnosis found.
 */
export function FollowUpNote({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  const summary = followUpSummary(result);
  if (!summary && !result.remind_at) return null;
  return (
    <Stack gap="sm">
      {summary && (
        <Alert color={summary.color} title={t(`analysis.followUp.title.${summary.outcome}`)} data-testid="follow-up">
          <Stack gap={6}>
            <Text size="sm" data-testid="follow-up-body">
              {t(followUpBodyKey(summary), {
                before: formatPercent(summary.before, 0),
                now: formatPercent(summary.now, 0),
              })}
            </Text>
            {summary.sentToExpert && (
              <Text size="sm" fw={600} data-testid="follow-up-expert">
                <IconUserCheck size={16} style={{ verticalAlign: 'text-bottom' }} />{' '}
                {t('analysis.followUp.sentToExpert')}
              </Text>
            )}
            <Anchor component={Link} to={`${routes.analysisHistory}?analysis=${summary.firstId}`} size="sm">
              {t('analysis.followUp.first')}
            </Anchor>
          </Stack>
        </Alert>
      )}
      {result.remind_at && (
        <Alert color="blue" icon={<IconBellRinging />} p="xs" data-testid="follow-up-reminder">
          {t('analysis.followUp.remindAt', { date: formatDate(result.remind_at) })}
        </Alert>
      )}
    </Stack>
  );
}
