import { Alert, Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconBook, IconCalendarEvent, IconLeaf } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { routes } from '../../../app/routes.ts';
import { formatDateTime, formatPercent } from '../../../lib/format.ts';
import { resultColor, resultLabelKey } from './classes.ts';

/**
 * A result: the disease and confidence, the unsure / no-leaf notice, the advice and the next steps
 * (`actions` false: no links that need the network, for a diagnosis made offline on the phone).
 */
export function ResultCard({ result, actions = true }: { result: AnalysisResult; actions?: boolean }) {
  const { t } = useTranslation();
  const notLeaf = result.outcome === 'not_leaf' || !result.rust_class;
  return (
    <Card withBorder padding="lg" radius="md" data-testid="analysis-result">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text size="sm" c="dimmed">
              {t('analysis.result.detected')}
            </Text>
            <Title order={3} data-testid="result-class">
              {t(resultLabelKey(result))}
            </Title>
          </div>
          {!notLeaf && (
            <Stack gap={2} align="flex-end">
              <Text size="sm" c="dimmed">
                {t('analysis.result.confidence')}
              </Text>
              <Badge size="xl" color={resultColor(result)} variant="light" data-testid="result-confidence">
                {formatPercent(result.confidence)}
              </Badge>
            </Stack>
          )}
        </Group>

        {notLeaf && (
          <Alert color="yellow" icon={<IconLeaf />} title={result.feedback.message} data-testid="result-notice">
            {result.feedback.explanation}
          </Alert>
        )}
        {!notLeaf && result.unsure && (
          <Alert
            color="yellow"
            icon={<IconAlertTriangle />}
            title={result.feedback.message}
            data-testid="result-notice"
          >
            {result.feedback.explanation}
          </Alert>
        )}
        {!notLeaf && !result.unsure && (
          <div>
            <Text fw={600}>{result.feedback.message}</Text>
            <Text size="sm">{result.feedback.explanation}</Text>
          </div>
        )}

        <div>
          <Text fw={600} mb={4}>
            {t('analysis.result.whatToDo')}
          </Text>
          <List size="sm" spacing={4} type="ordered">
            {result.feedback.advice.map((a) => (
              <List.Item key={a}>{a}</List.Item>
            ))}
          </List>
        </div>

        {actions && (
          <Group gap="sm">
            <Button
              component={Link}
              to={`${routes.educationResources}?analysis=${result.id}`}
              leftSection={<IconBook size={18} />}
              variant="light"
            >
              {t('analysis.result.resources', { count: result.educational_resources.length })}
            </Button>
            <Button component={Link} to={routes.slots} leftSection={<IconCalendarEvent size={18} />} variant="light">
              {t('analysis.result.bookSlot')}
            </Button>
          </Group>
        )}
        <Text size="xs" c="dimmed">
          {t('analysis.result.meta', { date: formatDateTime(result.created_at), version: result.model_version })}
        </Text>
      </Stack>
    </Card>
  );
}
