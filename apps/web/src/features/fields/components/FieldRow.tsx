import { Anchor, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconWalk } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Field, Walk } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { formatDate } from '../../../lib/format.ts';
import { fieldAge, rustCount, share } from '../lib/words.ts';

/** What the last walk found: "Last walk 20 Nov: rust on 14 of 50 plants (28 %)", marked while still on the phone. */
export function LastWalkLine({ walk, waiting }: { walk: Walk | null; waiting: boolean }) {
  const { t } = useTranslation();
  if (!walk)
    return (
      <Text size="sm" c="dimmed" data-testid="field-last-walk">
        {t('fields.list.notWalked')}
      </Text>
    );
  return (
    <Text size="sm" data-testid="field-last-walk">
      {t('fields.list.lastWalk', {
        date: formatDate(walk.walked_at),
        counts: rustCount(t, walk),
        share: share(walk.incidence?.share ?? 0),
      })}
      {waiting && ` · ${t('fields.queue.waitingOne')}`}
    </Text>
  );
}

/** One field of the list: its name (a link to it), crop, age, last walk and when Kutu asks again. */
export function FieldRow({ field, lastWalk }: { field: Field; lastWalk: Walk | null }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" radius="md" component="article" aria-label={field.name} data-testid="field-row">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Anchor component={Link} to={routes.field(field.id)} fw={700} size="lg" style={{ wordBreak: 'break-word' }}>
            {field.name}
          </Anchor>
          <Badge variant="light" color="green" tt="none" style={{ flexShrink: 0 }}>
            {t(`review.crop.${field.crop}`)}
          </Badge>
        </Group>
        <Text size="sm">{fieldAge(t, field)}</Text>
        <LastWalkLine walk={lastWalk} waiting={lastWalk !== null && lastWalk.id === 0} />
        {field.remind_at && (
          <Text size="sm" c="dimmed" data-testid="field-next-ask">
            {t('fields.list.nextAsk', { date: formatDate(field.remind_at) })}
          </Text>
        )}
        <Group gap="sm">
          <Button component={Link} to={routes.fieldWalk(field.id)} leftSection={<IconWalk size={18} />} size="sm">
            {t('fields.walkThis')}
          </Button>
          <Button component={Link} to={routes.field(field.id)} variant="light" size="sm">
            {t('fields.list.open')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
