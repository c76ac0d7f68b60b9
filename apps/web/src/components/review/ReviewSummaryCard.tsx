import { Button, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../config/routes.ts';
import { useReviewSummary } from '../../api/review.ts';
import { LoadingSkeleton } from '../LoadingSkeleton.tsx';

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/**
 * Dashboard card: experts see the queue and their reviews; farmers see their answered questions. While
 * loading it keeps its place (a card that appeared late pushed the rest down: layout shift 0.35).
 */
export function ReviewSummaryCard({ expert = false }: { expert?: boolean }) {
  const { t } = useTranslation();
  const { data, isPending } = useReviewSummary();
  if (!data && !isPending) return null;
  return (
    <Paper withBorder p="md" radius="md" data-testid="review-summary">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('review.summary.title')}
        </Title>
        {!data ? (
          <LoadingSkeleton h={expert ? 112 : 48} />
        ) : data.role === 'expert' ? (
          <>
            <SimpleGrid cols={{ base: 1, xs: 3 }}>
              <Figure label={t('review.summary.waiting')} value={String(data.waiting ?? 0)} testId="summary-waiting" />
              <Figure
                label={t('review.summary.reviewedThisWeek')}
                value={String(data.reviewed_by_me_this_week ?? 0)}
                testId="summary-week"
              />
              <Figure
                label={t('review.summary.agreement')}
                value={data.my_agreement_rate === null ? '–' : `${Math.round(data.my_agreement_rate * 100)}%`}
                testId="summary-agreement"
              />
            </SimpleGrid>
            <div>
              <Button component={Link} to={routes.reviewQueue} variant="light" size="xs">
                {t('menu.reviewQueue')}
              </Button>
            </div>
          </>
        ) : (
          <Figure
            label={t('review.summary.questionsAnswered')}
            value={t('review.summary.answeredOf', {
              answered: data.questions_answered ?? 0,
              asked: data.questions_asked ?? 0,
            })}
            testId="summary-answered"
          />
        )}
      </Stack>
    </Paper>
  );
}
