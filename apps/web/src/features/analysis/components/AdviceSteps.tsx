import { List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnalysisFeedback } from '@kutu/contract';

/** The advice in one headline, whose crop it is, and the numbered steps for this week. */
export function AdviceSteps({
  feedback,
  headlineTestId,
  stepsTestId,
}: {
  feedback: AnalysisFeedback;
  headlineTestId: string;
  stepsTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {feedback.headline && (
        <div>
          <Text fw={600} data-testid={headlineTestId}>
            {feedback.headline}
          </Text>
          <Text size="xs" c="dimmed">
            {t(`analysis.result.adviceFor.${feedback.advice_crop}`)}
          </Text>
        </div>
      )}
      <List size="sm" spacing={6} type="ordered" data-testid={stepsTestId}>
        {feedback.advice.map((a) => (
          <List.Item key={a}>{a}</List.Item>
        ))}
      </List>
    </>
  );
}
