import { Alert, Anchor, Card, List, Stack, Text, Title } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Walk } from '@kutu/contract';
import { formatDate } from '../../../lib/format.ts';
import { cropAge, rustCount, share } from '../lib/words.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The incidence in words: the share found and the range the whole field likely has, for that many plants. */
function IncidenceLine({ walk }: { walk: Walk }) {
  const { t } = useTranslation();
  const { incidence } = walk;
  if (!incidence) return null;
  const range = { low: share(incidence.low), high: share(incidence.high), looked: walk.plants_looked };
  return (
    <Text size="sm" data-testid="walk-incidence">
      {walk.plants_rust === 0
        ? t('fields.answer.noRust', range)
        : t('fields.answer.incidence', { share: share(incidence.share), count: walk.plants_looked, ...range })}
    </Text>
  );
}

/** This walk against the one before: better, the same, worse, or too few plants to tell. */
function ComparedLine({ walk }: { walk: Walk }) {
  const { t } = useTranslation();
  const before = walk.compared;
  return (
    <Text size="sm" fw={before && before.outcome !== 'same' ? 600 : undefined} data-testid="walk-compared">
      {before
        ? t(`fields.answer.compared.${before.outcome}`, {
            date: formatDate(before.walked_at),
            now: t('fields.of', { rust: walk.plants_rust, looked: walk.plants_looked }),
            before: t('fields.of', { rust: before.plants_rust, looked: before.plants_looked }),
          })
        : t('fields.answer.firstWalk')}
    </Text>
  );
}

/**
 * A walk's answer: the next step (the rule's steps as sentences), what it rests on ("rust on 14 of 50
 * plants, maize at 8 weeks"), the incidence with its range, the comparison with the walk before, when
 * Kutu asks again, and the sources. `onPhone`: worked out on the phone, not yet sent.
 */
export function WalkAnswer({ walk, onPhone = false }: { walk: Walk; onPhone?: boolean }) {
  const { t } = useTranslation();
  const days = walk.advice.walk_again_days;
  const again = days === null ? null : new Date(Date.parse(walk.walked_at) + days * DAY_MS);
  return (
    <Card withBorder padding="md" radius="md" data-testid="walk-answer">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t(`fields.action.${walk.advice.action}`)}
        </Title>
        {onPhone && (
          <Alert color="blue" icon={<IconDeviceMobile />} p="xs" data-testid="walk-on-phone">
            {t('fields.answer.onPhone')}
          </Alert>
        )}
        <List type="ordered" spacing={6} data-testid="walk-steps">
          {walk.advice.steps.map((step) => (
            <List.Item key={step}>{t(`fields.steps.${step}`)}</List.Item>
          ))}
        </List>
        <Text size="sm" fw={600} data-testid="walk-rests-on">
          {t('fields.answer.restsOn', { counts: rustCount(t, walk), age: cropAge(t, walk) })}
        </Text>
        <IncidenceLine walk={walk} />
        <ComparedLine walk={walk} />
        {walk.sent_to_expert && (
          <Text size="sm" fw={600} data-testid="walk-sent-to-expert">
            {t('fields.answer.sentToExpert')}
          </Text>
        )}
        <Text size="sm" data-testid="walk-next">
          {again ? t('fields.answer.nextAsk', { date: formatDate(again) }) : t('fields.answer.noNextAsk')}
        </Text>
        {walk.advice.sources.length > 0 && (
          <div>
            <Text size="xs" fw={600}>
              {t('fields.answer.sources')}
            </Text>
            <List size="xs" spacing={2} data-testid="walk-sources">
              {walk.advice.sources.map((s) => (
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
    </Card>
  );
}
