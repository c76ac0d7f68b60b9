import { useState } from 'react';
import { Badge, Button, Card, Collapse, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Walk } from '@kutu/contract';
import { formatDateTime } from '../../../lib/format.ts';
import { rustCount, share } from '../lib/words.ts';
import { WalkAnswer } from './WalkAnswer.tsx';

/**
 * One walk of a field: when, what it counted (with its incidence and range), how it compares with the
 * walk before, and its whole answer on a tap. `waiting`: counted offline, still on this phone.
 */
export function WalkRow({ walk, waiting = false }: { walk: Walk; waiting?: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { incidence, compared } = walk;
  return (
    <Card withBorder padding="sm" radius="md" data-testid="walk-row">
      <Stack gap={4}>
        <Group gap="xs" justify="space-between">
          <Text fw={600}>{formatDateTime(walk.walked_at)}</Text>
          {waiting && (
            <Badge color="gray" variant="outline" tt="none">
              {t('fields.queue.waitingOne')}
            </Badge>
          )}
          {walk.recorded_by_expert && (
            <Badge color="blue" variant="light" tt="none">
              {t('fields.page.byExpert')}
            </Badge>
          )}
        </Group>
        <Text size="sm" data-testid="walk-row-counts">
          {incidence
            ? t('fields.page.walkLine', {
                counts: rustCount(t, walk),
                share: share(incidence.share),
                low: share(incidence.low),
                high: share(incidence.high),
              })
            : rustCount(t, walk)}
        </Text>
        {compared && (
          <Text size="sm" c="dimmed" data-testid="walk-row-compared">
            {t(`fields.page.compared.${compared.outcome}`, {
              before: t('fields.of', { rust: compared.plants_rust, looked: compared.plants_looked }),
            })}
          </Text>
        )}
        <Text size="sm" fw={500}>
          {t(`fields.action.${walk.advice.action}`)}
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          style={{ alignSelf: 'flex-start' }}
        >
          {open ? t('fields.page.hideAdvice') : t('fields.page.showAdvice')}
        </Button>
        <Collapse expanded={open}>{open && <WalkAnswer walk={walk} onPhone={waiting} />}</Collapse>
      </Stack>
    </Card>
  );
}
