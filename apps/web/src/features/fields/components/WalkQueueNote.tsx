import { Alert, Group, Text } from '@mantine/core';
import { IconClockUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { QueuedWalk } from '../../../lib/offline/store.ts';
import { formatDate } from '../../../lib/format.ts';

/** The walks counted with no signal that wait on this phone, and those the server refused, with why. */
export function WalkQueueNote({ queued }: { queued: readonly QueuedWalk[] }) {
  const { t } = useTranslation();
  const waiting = queued.filter((q) => q.error === null).length;
  return (
    <>
      {waiting > 0 && (
        <Group gap="xs" wrap="nowrap" data-testid="walk-queue">
          <IconClockUp size={18} aria-hidden />
          <Text size="sm">{t('fields.queue.waiting', { count: waiting })}</Text>
        </Group>
      )}
      {queued
        .filter((q) => q.error !== null)
        .map((q) => (
          <Alert key={q.key} color="red" title={t('fields.queue.refused', { date: formatDate(q.body.walked_at) })}>
            {q.error}
          </Alert>
        ))}
    </>
  );
}
