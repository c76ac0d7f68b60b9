import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SeverityAgreement } from '@kutu/contract';
import { SEVERITY_TRUST, severityBands } from '@kutu/contract/enums';
import { formatPercent } from '../../lib/format.ts';
import { Figure, pct } from './figures.tsx';
import { ConfusionTable } from './ConfusionTable.tsx';

/**
 * Model severity against the expert's own (docs/decisions/0045): counts, the share in the same band and the
 * band confusion, saying plainly when there are too few ratings to judge.
 */
export default function SeverityFigures({ severity }: { severity: SeverityAgreement }) {
  const { t } = useTranslation();
  const rule = { min: SEVERITY_TRUST.minRated, agreement: formatPercent(SEVERITY_TRUST.minAgreement, 0) };
  const tooFew = severity.rated < SEVERITY_TRUST.minRated;
  return (
    <Stack gap="xs" data-testid="field-severity">
      <div>
        <Text fw={600}>{t('review.severity.fieldTitle')}</Text>
        <Text size="xs" c="dimmed">
          {t('review.severity.fieldIntro')}
        </Text>
      </div>
      <SimpleGrid cols={2}>
        <Figure label={t('review.severity.rated')} value={severity.rated} testId="severity-rated" />
        <Figure
          label={t('review.severity.agreed')}
          value={severity.rated > 0 ? `${severity.agreed} (${pct(severity.agreement)})` : '–'}
          testId="severity-agreed"
        />
      </SimpleGrid>
      <Text size="sm" data-testid="severity-verdict">
        {tooFew && `${t('review.severity.tooFew')} `}
        {severity.estimate ? t('review.severity.rule', rule) : t('review.severity.trusted')}
      </Text>
      {severity.rated > 0 && (
        <ConfusionTable
          label={t('review.severity.matrix')}
          rows={severityBands}
          columns={severityBands}
          name={(b) => t(`analysis.result.severity.band.${b}`)}
          counts={severity.confusion}
        />
      )}
    </Stack>
  );
}
