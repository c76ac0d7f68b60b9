import { Suspense, useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Collapse, Group, List, Stack, Text, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBook,
  IconCalendarEvent,
  IconChevronDown,
  IconChevronUp,
  IconLeaf,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { MAX_FIELD_PHOTOS, waitsForExpert } from '@kutu/contract/field-photos';
import { routes } from '../../../config/routes.ts';
import { formatDateTime, formatConfidence } from '../../../lib/format.ts';
import { resultColor, say } from '../../../lib/diagnosis-labels.ts';
import { SeverityNote, SeverityUnmeasuredNote } from './SeverityNote.tsx';
import { ExpertWait } from './ExpertWait.tsx';
import { AdviceSteps } from './AdviceSteps.tsx';
import { ListenButton } from '../../../components/ListenButton/ListenButton.tsx';
import { resultParts } from '../lib/spoken.ts';
import { ResultField } from './result-field-lazy.ts';

/**
 * A confident rust answer (no expert's answer over it): its field's walk, not the leaf, says how much of the
 * field has rust and what to do (decision 0078), so it asks for one or says what the last one found.
 */
const isRustAnswer = (r: AnalysisResult) =>
  r.outcome === 'diagnosis' && r.rust_class === 'common_rust' && !r.unsure && !r.expert_answer;

/**
 * A result: a heading that says what was found, the confidence, the advice for the crop in one
 * headline and 3-5 numbered steps, and the explanation, further points and sources behind "See more"
 * (the whole advice is too tall for a phone). `actions` false: no links that need the network, for a
 * diagnosis made offline on the phone.
 */
export function ResultCard({ result, actions = true }: { result: AnalysisResult; actions?: boolean }) {
  const { t } = useTranslation();
  const [more, setMore] = useState(false);
  const notLeaf = result.outcome === 'not_leaf' || !result.rust_class;
  const { feedback } = result;
  const heading = say(t, feedback.finding);
  const explanation = say(t, feedback.explanation);
  // Unsure with no leaf left to add: the photos wait for an expert, and the card says so instead of
  // the unsure advice, which asks for another photo (decision 0048).
  const withExpert = waitsForExpert(result);
  // Rust on the leaf: how much of the field has it, counted on a walk, is the reason to act (decision 0078).
  const walk = isRustAnswer(result);
  return (
    <Card withBorder padding="md" radius="md" data-testid="analysis-result">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={2} size="h3" data-testid="result-heading">
            {heading}
          </Title>
          {!notLeaf && (
            <Badge
              size="lg"
              color={resultColor(result)}
              variant="light"
              data-testid="result-confidence"
              style={{ flexShrink: 0 }}
              aria-label={t('analysis.result.confidenceLabel', { value: formatConfidence(result.confidence) })}
            >
              {formatConfidence(result.confidence)}
            </Badge>
          )}
        </Group>
        <ListenButton parts={resultParts(result)} />

        {(notLeaf || result.unsure) && (
          <Alert
            color="yellow"
            icon={notLeaf ? <IconLeaf /> : <IconAlertTriangle />}
            data-testid="result-notice"
            p="xs"
          >
            {explanation}
          </Alert>
        )}

        {(result.field || walk) && (
          <Suspense fallback={null}>
            <ResultField result={result} askWalk={walk} />
          </Suspense>
        )}

        {result.severity && <SeverityNote severity={result.severity} withAdvice={!walk} />}
        {!result.severity && result.severity_unmeasured && <SeverityUnmeasuredNote />}

        {/* A diagnosis made on the phone has no id until its queued photos reach the server. */}
        {withExpert && <ExpertWait photos={result.photos.length || MAX_FIELD_PHOTOS} queued={result.id === 0} />}

        {!withExpert && <AdviceSteps feedback={feedback} headlineTestId="advice-headline" stepsTestId="advice-steps" />}

        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => setMore((o) => !o)}
          aria-expanded={more}
          rightSection={more ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
          style={{ alignSelf: 'flex-start' }}
        >
          {more ? t('analysis.result.seeLess') : t('analysis.result.seeMore')}
        </Button>
        <Collapse expanded={more}>
          <Stack gap="xs" data-testid="advice-more">
            {!notLeaf && !result.unsure && <Text size="sm">{explanation}</Text>}
            {feedback.more.length > 0 && (
              <List size="sm" spacing={4}>
                {feedback.more.map((a) => (
                  <List.Item key={a}>{a}</List.Item>
                ))}
              </List>
            )}
            {feedback.sources.length > 0 && (
              <div>
                <Text size="xs" fw={600}>
                  {t('analysis.result.sources')}
                </Text>
                <List size="xs" spacing={2}>
                  {feedback.sources.map((s) => (
                    <List.Item key={s.url}>
                      <Anchor href={s.url} target="_blank" rel="noopener noreferrer" size="xs">
                        {s.title}
                      </Anchor>
                    </List.Item>
                  ))}
                </List>
              </div>
            )}
          </Stack>
        </Collapse>

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
