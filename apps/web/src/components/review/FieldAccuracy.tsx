import { Paper, ScrollArea, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldAccuracyFigures, FieldAccuracyReply, SeverityAgreement } from '@kutu/contract';
import { SEVERITY_TRUST, severityBands } from '@kutu/contract/enums';
import { useFieldAccuracy } from '../../api/review.ts';
import { formatPercent } from '../../lib/format.ts';

const pct = (v: number | null) => (v === null ? '–' : formatPercent(v, 1));

/** The agreement figure as one line, e.g. "75.0% of 12" (for the model versions table). */
export function agreementLine(f: Pick<FieldAccuracyFigures, 'agreement' | 'confident_reviewed'> | undefined) {
  return f && f.confident_reviewed > 0 ? `${pct(f.agreement)} / ${f.confident_reviewed}` : '–';
}

function Matrix({ figures, reply }: { figures: FieldAccuracyFigures; reply: FieldAccuracyReply }) {
  const { t } = useTranslation();
  return (
    <ScrollArea type="auto">
      <Table
        fz="xs"
        withTableBorder
        withColumnBorders
        horizontalSpacing={4}
        verticalSpacing={4}
        aria-label={t('review.field.matrix')}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('review.field.modelVsExpert')}</Table.Th>
            {reply.verdicts.map((v) => (
              <Table.Th key={v}>{t(`review.short.${v}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reply.model_answers.map((a) => (
            <Table.Tr key={a}>
              <Table.Th>{t(`review.short.${a}`)}</Table.Th>
              {reply.verdicts.map((v) => (
                <Table.Td key={v}>{figures.confusion[a]?.[v] ?? 0}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function Figure({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/**
 * Model severity against the expert's own (docs/decisions/0045): counts, the share in the same band and the
 * band confusion, saying plainly when there are too few ratings to judge.
 */
export function SeverityFigures({ severity }: { severity: SeverityAgreement }) {
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
        {tooFew
          ? t('review.severity.tooFew', { count: severity.rated, ...rule })
          : severity.estimate
            ? t('review.severity.estimateStill', rule)
            : t('review.severity.trusted')}
      </Text>
      {severity.rated > 0 && (
        <ScrollArea type="auto">
          <Table
            fz="xs"
            withTableBorder
            withColumnBorders
            horizontalSpacing={4}
            verticalSpacing={4}
            aria-label={t('review.severity.matrix')}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('review.severity.modelVsExpert')}</Table.Th>
                {severityBands.map((b) => (
                  <Table.Th key={b}>{t(`analysis.result.severity.band.${b}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {severityBands.map((m) => (
                <Table.Tr key={m}>
                  <Table.Th>{t(`analysis.result.severity.band.${m}`)}</Table.Th>
                  {severityBands.map((e) => (
                    <Table.Td key={e}>{severity.confusion[m]?.[e] ?? 0}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
    </Stack>
  );
}

/** Field accuracy per model version, measured by expert verdicts on farmers' photos. */
export function FieldAccuracy() {
  const { t } = useTranslation();
  const { data } = useFieldAccuracy();
  return (
    <Paper withBorder p="md" radius="md" data-testid="field-accuracy">
      <Stack>
        <div>
          <Title order={3}>{t('review.field.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('review.field.intro')}
          </Text>
        </div>
        {data?.versions.length === 0 && <Text size="sm">{t('review.field.none')}</Text>}
        {data?.versions.map((v) => (
          <Stack key={v.model_version} gap="xs" data-testid={`field-${v.model_version}`}>
            <Text fw={600}>{v.model_version}</Text>
            <SimpleGrid cols={{ base: 2, sm: 4 }}>
              <Figure label={t('review.field.reviewed')} value={`${v.reviewed} / ${v.analyses}`} />
              <Figure label={t('review.field.agreement')} value={pct(v.agreement)} testId="field-agreement" />
              <Figure label={t('review.field.confident')} value={v.confident_reviewed} />
              <Figure label={t('review.field.unsureRate')} value={pct(v.unsure_rate)} />
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {Object.entries(v.by_crop)
                .map(([crop, f]) =>
                  t('review.field.cropLine', {
                    crop: t(`review.crop.${crop}`),
                    reviewed: f.reviewed,
                    agreement: pct(f.agreement),
                    unsure: pct(f.unsure_rate),
                  }),
                )
                .join(' · ')}
            </Text>
            {v.reviewed > 0 && data && <Matrix figures={v} reply={data} />}
          </Stack>
        ))}
        {data?.severity && <SeverityFigures severity={data.severity} />}
      </Stack>
    </Paper>
  );
}
