import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconMessageQuestion, IconShare, IconUserCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult, ExpertReview } from '@kutu/contract';
import { waitsForExpert } from '@kutu/contract/field-photos';
import { errorMessage } from '../../lib/api.ts';
import { formatDateTime } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { resultLabelKey } from '../../lib/diagnosis-labels.ts';
import { useAskExpert, useReview, useShareToCommunity } from '../../api/review.ts';
import { verdictColor, verdictKeyFor } from './verdicts.ts';

function Verdict({ analysis, review }: { analysis: AnalysisResult; review: ExpertReview }) {
  const { t } = useTranslation();
  const share = useShareToCommunity();
  if (!review.verdict) return null;
  return (
    <Stack gap="xs" data-testid="expert-verdict">
      <Group gap="lg" align="flex-start">
        <div>
          <Text size="xs" c="dimmed">
            {t('review.panel.modelSaid')}
          </Text>
          <Text fw={500}>{t(resultLabelKey(analysis))}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('review.panel.expertSaid')}
          </Text>
          <Badge size="lg" color={verdictColor[review.verdict]} data-testid="expert-verdict-class">
            {t(verdictKeyFor(review.verdict, analysis.crop))}
          </Badge>
        </div>
      </Group>
      {review.note && (
        <Text size="sm" data-testid="expert-verdict-note">
          “{review.note}”
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('review.panel.by', {
          name: review.reviewer?.username ?? t('review.panel.anExpert'),
          date: formatDateTime(review.revised_at ?? review.reviewed_at),
        })}
      </Text>
      {review.community_post_id ? (
        <Text size="sm" c="dimmed" data-testid="shared-post">
          {t('review.panel.shared')}
        </Text>
      ) : (
        <Group>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconShare size={16} />}
            loading={share.isPending}
            onClick={() =>
              share.mutate(analysis.id, {
                onSuccess: () => notifySuccess(t('review.panel.sharedNotice')),
                onError: (err) => notifyError(errorMessage(err)),
              })
            }
          >
            {t('review.panel.share')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function AskForm({ analysisId }: { analysisId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [question, setQuestion] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ask = useAskExpert();
  if (!open) {
    return (
      <Group>
        <Button variant="light" leftSection={<IconMessageQuestion size={18} />} onClick={() => setOpen(true)}>
          {t('review.panel.ask')}
        </Button>
      </Group>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        ask.mutate(
          { analysisId, body: { question } },
          {
            onSuccess: () => notifySuccess(t('review.panel.asked')),
            onError: (err) => setError(errorMessage(err)),
          },
        );
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={t('review.panel.questionLabel')}
          placeholder={t('review.panel.questionPlaceholder')}
          value={question}
          onChange={(e) => setQuestion(e.currentTarget.value)}
          maxLength={500}
          autosize
          minRows={2}
          error={error}
          data-testid="ask-question"
        />
        <Group>
          <Button type="submit" loading={ask.isPending}>
            {t('review.panel.send')}
          </Button>
          <Button variant="subtle" onClick={() => setOpen(false)}>
            {t('analysis.common.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Whether the photos already went to the experts without the farmer asking: a follow-up that looked
 * worse (queued by Kutu, `asked_at`), or an unsure answer with no leaf left to add (decision 0048).
 */
const sentToExpert = (analysis: AnalysisResult, review: ExpertReview) =>
  review.asked_at !== null || Boolean(analysis.follow_up?.sent_to_expert) || waitsForExpert(analysis);

/**
 * On a farmer's result: the expert's verdict beside the model's answer, the question waiting, "Sent to
 * an expert" when Kutu sent the photos itself, or else a way to ask for one.
 */
export function ExpertReviewPanel({ analysis }: { analysis: AnalysisResult }) {
  const { t } = useTranslation();
  const review = useReview(analysis.id);
  let body: React.ReactNode = null;
  if (review.isError) {
    body = <Alert color="red">{errorMessage(review.error)}</Alert>;
  } else if (review.data?.status === 'reviewed') {
    body = <Verdict analysis={analysis} review={review.data} />;
  } else if (review.data?.question) {
    body = (
      <Text size="sm" data-testid="question-waiting">
        {t('review.panel.waiting', { question: review.data.question })}
      </Text>
    );
  } else if (review.data && sentToExpert(analysis, review.data)) {
    // Kutu sent the photos to the experts itself: nothing to ask, the answer comes.
    body = (
      <Text size="sm" data-testid="sent-to-expert">
        {t('review.panel.sentToExpert')}
      </Text>
    );
  } else if (review.data) {
    body = (
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {t('review.panel.askIntro')}
        </Text>
        <AskForm analysisId={analysis.id} />
      </Stack>
    );
  }
  return (
    <Card withBorder padding="md" radius="md" data-testid="expert-review-panel">
      <Stack gap="xs">
        <Group gap="xs">
          <IconUserCheck size={20} />
          <Title order={4}>{t('review.panel.title')}</Title>
        </Group>
        {body}
      </Stack>
    </Card>
  );
}
