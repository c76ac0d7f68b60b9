import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBook, IconUserCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult, ExpertAnswer as Answer } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { verdictColor, verdictKeyFor } from '../../../components/review/verdicts.ts';
import { AdviceSteps } from './AdviceSteps.tsx';
import { ListenButton } from '../../../components/ListenButton/ListenButton.tsx';
import { expertAnswerParts } from '../lib/spoken.ts';

const bandColor = { low: 'yellow', moderate: 'orange', severe: 'red' } as const;

/**
 * The expert's answer, which a result leads with once there is one (docs/decisions/0049): the verdict
 * named for the crop, whether the expert changed it, their severity band and note, and the crop's advice
 * for that answer. The model's own answer follows it, as what the model said.
 */
export function ExpertAnswer({
  result,
  answer,
  actions = true,
}: {
  result: AnalysisResult;
  answer: Answer;
  actions?: boolean;
}) {
  const { t } = useTranslation();
  const { feedback } = answer;
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      data-testid="expert-answer"
      style={{ borderColor: 'var(--mantine-color-green-7)' }}
    >
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <IconUserCheck size={18} aria-hidden />
          <Text size="sm" fw={600}>
            {t('analysis.expert.title')}
          </Text>
          {answer.changed && (
            <Badge color="blue" variant="light" tt="none" data-testid="expert-answer-changed">
              {t('analysis.expert.changed')}
            </Badge>
          )}
        </Group>
        <Group gap="xs" wrap="wrap">
          <Title order={2} size="h3" data-testid="expert-answer-heading">
            {t(verdictKeyFor(answer.verdict, result.crop))}
          </Title>
          <Badge color={verdictColor[answer.verdict]} variant="filled" tt="none" style={{ flexShrink: 0 }}>
            {t('analysis.expert.checked')}
          </Badge>
        </Group>
        <ListenButton parts={expertAnswerParts(result, answer)} testId="listen-expert" />
        {answer.severity && (
          <Badge
            color={bandColor[answer.severity]}
            variant="light"
            tt="none"
            h="auto"
            style={{ whiteSpace: 'normal', alignSelf: 'flex-start' }}
            data-testid="expert-answer-severity"
          >
            {t('analysis.expert.severity', { band: t(`analysis.result.severity.band.${answer.severity}`) })}
          </Badge>
        )}
        {answer.note && (
          <div>
            <Text size="xs" c="dimmed">
              {t('analysis.expert.note')}
            </Text>
            <Text size="sm" data-testid="expert-answer-note" style={{ overflowWrap: 'anywhere' }}>
              “{answer.note}”
            </Text>
          </div>
        )}
        <AdviceSteps feedback={feedback} headlineTestId="expert-answer-advice" />
        {actions && answer.educational_resources.length > 0 && (
          <Button
            component={Link}
            to={`${routes.educationResources}?analysis=${result.id}`}
            leftSection={<IconBook size={18} />}
            variant="light"
            style={{ alignSelf: 'flex-start' }}
          >
            {t('analysis.result.resources', { count: answer.educational_resources.length })}
          </Button>
        )}
        <Text size="xs" c="dimmed">
          {t('analysis.expert.answeredAt', { date: formatDateTime(answer.answered_at) })}
        </Text>
      </Stack>
    </Card>
  );
}
