import { useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { type FailedMessage, nativeNames } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { useFailedMessages, useSendAgain } from '../../../api/failed-messages.ts';

const PAGE_SIZE = 10;

function MessageCard({ m, onSend, busy }: { m: FailedMessage; onSend: () => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={m.to.username}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Text fw={700} truncate="end">
          {m.to.username}
        </Text>
        <Badge color="red" variant="light">
          {t(`delivery.channel.${m.channel}`, { defaultValue: m.channel })}
        </Badge>
      </Group>
      <Stack gap={4}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('delivery.to', { address: m.to.address })}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('delivery.reason', { reason: t(`delivery.reasons.${m.reason_kind}`) })}
        </Text>
        {m.reason && (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('delivery.said', { words: m.reason })}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t('delivery.tried', { count: m.attempts, when: formatDateTime(m.created_at) })}
        </Text>
        <Text size="sm" fw={600}>
          {t('delivery.sentIn', { language: nativeNames[m.language] })}
        </Text>
        {/* As the person got it, in their language: an SMS's parts one a line. */}
        <Text size="sm" lang={m.language} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
          {m.text}
        </Text>
      </Stack>
      <Group mt="md">
        <Button size="sm" onClick={onSend} loading={busy}>
          {t('delivery.sendAgain')}
        </Button>
      </Group>
    </Card>
  );
}

/** The administrator's list of messages that failed for good, each with its reason and "send again". */
export function FailedMessages() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useFailedMessages(page, PAGE_SIZE);
  const sendAgain = useSendAgain();
  const results = list.data?.results ?? [];
  const send = (m: FailedMessage) =>
    sendAgain.mutate(m.id, {
      onSuccess: () => notifySuccess(t('delivery.queued', { name: m.to.username })),
      onError: (err) => notifyError(errorMessage(err)),
    });
  return (
    <Stack gap="md" component="section" aria-labelledby="failed-messages-title">
      <Title order={2} size="h3" id="failed-messages-title">
        {t('delivery.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('delivery.intro')}
      </Text>
      <ListState
        query={list}
        errorTitle={t('delivery.loadFailed')}
        empty={results.length === 0}
        emptyText={t('delivery.empty')}
      >
        <Stack gap="sm">
          {results.map((m) => (
            <MessageCard
              key={m.id}
              m={m}
              busy={sendAgain.isPending && sendAgain.variables === m.id}
              onSend={() => send(m)}
            />
          ))}
        </Stack>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={list.data?.count ?? 0} onChange={setPage} />
      </ListState>
    </Stack>
  );
}
