import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconBellRinging, IconRepeat } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { openFollowUpsQuery } from '../../../api/analysis.ts';
import { formatDate } from '../../../lib/format.ts';
import { ListenButtonLater } from '../../../components/ListenButton/ListenButtonLater.tsx';
import { say } from '../../../lib/diagnosis-labels.ts';

/** At most this many earlier diagnoses are offered (one open reminder per crop is the rule). */
const SHOWN = 3;

/**
 * Whether a new photo follows up an earlier diagnosis (docs/decisions/0044, 0059): only when the farmer
 * says so. With `followUpOf` (the reminder's link, or a choice made here) a banner says which diagnosis
 * it checks again, with a way out; without it, the farmer's diagnoses whose reminder is open are offered
 * ("the same field as on 12 Nov, maize"), and a photo sent without a choice is a new diagnosis.
 */
export function FollowUpChoice({
  followUpOf,
  first,
  firstFailed,
  onChoose,
  disabled,
}: {
  followUpOf: number | null;
  /** The diagnosis followed up, once loaded. */
  first: AnalysisResult | undefined;
  firstFailed: boolean;
  onChoose: (id: number | null) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const open = useQuery({ ...openFollowUpsQuery(), enabled: followUpOf === null });
  if (followUpOf !== null) {
    if (firstFailed) return null;
    return (
      <Alert color="blue" icon={<IconBellRinging />} data-testid="follow-up-banner">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">
            {first
              ? t('analysis.followUp.checking', { date: formatDate(first.created_at) })
              : t('analysis.followUp.checkingNoDate')}
          </Text>
          <Button size="compact-sm" variant="subtle" onClick={() => onChoose(null)} disabled={disabled}>
            {t('analysis.followUp.notFollowUp')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const offered = (open.data?.results ?? []).slice(0, SHOWN);
  if (offered.length === 0) return null;
  const sameField = (o: (typeof offered)[number]) => ({
    key: 'analysis.followUp.sameField',
    // The field by its name (decision 0078); its crop for a diagnosis from before fields.
    values: { date: formatDate(o.analysed_at), crop: o.field_name ?? { key: `review.crop.${o.crop ?? 'other'}` } },
  });
  return (
    <Alert color="gray" variant="light" icon={<IconRepeat />} data-testid="follow-up-choice">
      <Stack gap="xs" align="flex-start">
        <ListenButtonLater
          testId="listen-follow-up"
          parts={[
            { ref: { key: 'analysis.followUp.chooseIntro' } },
            ...offered.map((o) => ({ ref: sameField(o) })),
            { ref: { key: 'analysis.followUp.chooseNone' } },
          ]}
        />
        <Text size="sm">{t('analysis.followUp.chooseIntro')}</Text>
        {offered.map((o) => (
          <Button
            key={o.analysis_id}
            size="compact-sm"
            variant="light"
            onClick={() => onChoose(o.analysis_id)}
            disabled={disabled}
            data-testid={`follow-up-choose-${o.analysis_id}`}
            styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
            h="auto"
            py={4}
          >
            {say(t, sameField(o))}
          </Button>
        ))}
        <Text size="xs" c="dimmed">
          {t('analysis.followUp.chooseNone')}
        </Text>
      </Stack>
    </Alert>
  );
}
