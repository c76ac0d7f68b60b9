import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnalysisSeverity } from '@kutu/contract';
import { formatPercent } from '../../../lib/format.ts';

const bandColor = { low: 'yellow', moderate: 'orange', severe: 'red' } as const;

/**
 * How much of the leaf shows rust (docs/decisions/0045, 0048): the band, one plain sentence per band
 * with its share (so the words agree with the number), and the advice it changes: a low share means
 * checking again; a higher one points at the crop's own spray advice. `withAdvice` false: a walk of the
 * field is the reason to act, not one leaf's share (decision 0078).
 */
export function SeverityNote({ severity, withAdvice = true }: { severity: AnalysisSeverity; withAdvice?: boolean }) {
  const { t } = useTranslation();
  const share = formatPercent(severity.share, 0);
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="result-severity">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {t('analysis.result.severity.title')}
          </Text>
          <Badge color={bandColor[severity.band]} variant="light" tt="none" data-testid="severity-badge">
            {t(`analysis.result.severity.band.${severity.band}`)}
          </Badge>
        </Group>
        <Text size="sm" fw={500} data-testid="severity-band">
          {t(`analysis.result.severity.sentence.${severity.band}`, { share })}
        </Text>
        {withAdvice && (
          <Text size="sm" data-testid="severity-advice">
            {t(
              severity.band === 'low' ? 'analysis.result.severity.advice.low' : 'analysis.result.severity.advice.spray',
            )}
          </Text>
        )}
        <Text size="xs" c="dimmed" data-testid="severity-estimate">
          {t(severity.estimate ? 'analysis.result.severity.estimate' : 'analysis.result.severity.checked')}
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * A confident rust answer whose share could not be measured (`severity_unmeasured`): Kutu did not tell the leaf
 * apart from what is around it, or read under 1 % of it as rust (`MEASURABLE_SHARE`), so it says so in words,
 * gives no number and rings no spots.
 */
export function SeverityUnmeasuredNote() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="result-severity-unmeasured">
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {t('analysis.result.severity.title')}
        </Text>
        <Text size="sm" data-testid="severity-unmeasured">
          {t('analysis.result.severity.unmeasured')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('analysis.result.severity.unmeasuredHint')}
        </Text>
      </Stack>
    </Paper>
  );
}
