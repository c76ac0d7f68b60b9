import { useState } from 'react';
import { Alert, Button, Card, Center, Loader, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ClinicVisit, ReviewVerdict } from '@kutu/contract';
import { reviewVerdicts } from '@kutu/contract/enums';
import { useClinicVerdict, useClinicVisit } from '../../../api/clinic.ts';
import { errorMessage } from '../../../lib/api.ts';
import { say } from '../../../lib/diagnosis-labels.ts';
import { formatConfidence, formatPercent } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';

/** Kutu's diagnosis of each photo, and the expert's answer: confirmed or corrected, with advice for the farmer. */
export function VisitResult({ visit, onDone }: { visit: ClinicVisit; onDone: () => void }) {
  const { t } = useTranslation();
  const first = visit.analyses[0];
  const suggested: ReviewVerdict =
    first && first.outcome !== 'not_leaf' && first.rust_class ? first.rust_class : 'cannot_tell';
  const [verdict, setVerdict] = useState<ReviewVerdict>(visit.verdict ?? suggested);
  const [recommendation, setRecommendation] = useState('');
  const decide = useClinicVerdict(visit.id);
  const done = decide.data ?? (visit.verdict ? visit : null);

  const send = () =>
    decide.mutate(
      { verdict, recommendation: recommendation.trim() || undefined },
      {
        onSuccess: () => notifySuccess(t('clinic.result.sent')),
        onError: (err) => notifyError(errorMessage(err), t('clinic.result.error')),
      },
    );

  return (
    <Card withBorder padding="md">
      <Stack gap="sm">
        <Text fw={700}>{t('clinic.result.title', { name: visit.farmer.name })}</Text>
        {visit.analyses.map((a, i) => (
          <Text key={a.id} size="sm">
            {t('clinic.result.photo', { n: i + 1 })}: {say(t, a.feedback.finding)}
            {a.outcome !== 'not_leaf' && ` (${formatConfidence(a.confidence)})`}
          </Text>
        ))}
        {visit.walk && (
          <>
            <Text size="sm">
              {t('clinic.result.walk', {
                field: visit.field?.name ?? '',
                rust: visit.walk.plants_rust,
                looked: visit.walk.plants_looked,
                share: formatPercent(visit.walk.incidence?.share ?? 0, 0),
              })}
            </Text>
            <Text size="sm">
              {t('clinic.result.walkAdvice', { action: t(`clinic.result.action.${visit.walk.advice.action}`) })}
            </Text>
          </>
        )}
        {done ? (
          <Alert color="green" role="status">
            {t('clinic.result.done', { verdict: t(`review.verdict.${done.verdict ?? 'cannot_tell'}`) })}
          </Alert>
        ) : (
          <>
            <NativeSelect
              label={t('clinic.result.verdict')}
              value={verdict}
              onChange={(e) => setVerdict(e.currentTarget.value as ReviewVerdict)}
              data={reviewVerdicts.map((v) => ({ value: v, label: t(`review.verdict.${v}`) }))}
            />
            <Textarea
              label={t('clinic.result.recommendation')}
              description={t('clinic.result.recommendationHint')}
              maxLength={320}
              autosize
              minRows={2}
              value={recommendation}
              onChange={(e) => setRecommendation(e.currentTarget.value)}
            />
            <Button onClick={send} loading={decide.isPending}>
              {t('clinic.result.confirm')}
            </Button>
          </>
        )}
        {done && (
          <Button variant="light" onClick={onDone}>
            {t('clinic.result.next')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}

/** A visit opened from the records by its id: loaded, then answered as just after it was recorded. */
export function SavedVisitResult({ id, onDone }: { id: number; onDone: () => void }) {
  const { t } = useTranslation();
  const query = useClinicVisit(id);
  if (query.data) return <VisitResult visit={query.data} onDone={onDone} />;
  if (query.isError) {
    return (
      <Stack gap="sm">
        <Alert color="red" role="alert">
          {errorMessage(query.error, t('clinic.records.loadError'))}
        </Alert>
        <Button variant="light" onClick={onDone} style={{ alignSelf: 'start' }}>
          {t('clinic.result.next')}
        </Button>
      </Stack>
    );
  }
  return (
    <Center py="md">
      <Loader size="sm" aria-label={t('clinic.records.finish')} />
    </Center>
  );
}
