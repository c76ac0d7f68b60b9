import { useState } from 'react';
import { Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import type { CallbackRequest } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { useCallbackDone, useCallbacks } from '../../../api/phone.ts';
// Its strings come with it, not with a farmer's screens (lib/locale-parts.ts); the router waits for them.
export { screenStringsReady } from '../../../lib/staff-strings.ts';

const PAGE_SIZE = 10;
const LANGUAGE_NAMES = { en: 'English', sw: 'Kiswahili', lg: 'Luganda' } as const;

function CallbackCard({ request: r, onDone, busy }: { request: CallbackRequest; onDone: () => void; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={r.farmer}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Text fw={700} truncate="end">
          {r.farmer}
        </Text>
        <Badge variant="light">{LANGUAGE_NAMES[r.language]}</Badge>
      </Group>
      <Stack gap={4}>
        <Text size="sm">
          <a href={`tel:${r.phone}`}>{r.phone}</a>
        </Text>
        {r.district && <Text size="sm">{t('phone.callbacks.district', { district: r.district })}</Text>}
        <Text size="sm" c="dimmed">
          {t(`phone.callbacks.asked.${r.channel}`, { when: formatDateTime(r.created_at) })}
        </Text>
        {r.done_at && (
          <Text size="sm" c="dimmed" data-testid="callback-done">
            {r.done_by
              ? t(`phone.callbacks.doneBy.${r.done_by.role}`, { name: r.done_by.name, when: formatDateTime(r.done_at) })
              : t('phone.callbacks.doneAt', { when: formatDateTime(r.done_at) })}
          </Text>
        )}
        {r.done_note && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t('phone.callbacks.doneNote', { note: r.done_note })}
          </Text>
        )}
      </Stack>
      {!r.done_at && (
        <Button mt="md" size="sm" onClick={onDone} loading={busy}>
          {t('phone.callbacks.markDone')}
        </Button>
      )}
    </Card>
  );
}

/** Experts: farmers on basic phones who asked to be called back, in their language (docs/decisions/0051). */
export default function CallbacksPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<'open' | 'done'>('open');
  const list = useCallbacks(page, PAGE_SIZE, state);
  const done = useCallbackDone();
  const results = list.data?.results ?? [];
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('phone.callbacks.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('phone.callbacks.intro')}
      </Text>
      <SegmentedControl
        value={state}
        onChange={(v) => {
          setState(v as 'open' | 'done');
          setPage(1);
        }}
        data={[
          { value: 'open', label: t('phone.callbacks.open') },
          { value: 'done', label: t('phone.callbacks.done') },
        ]}
        maw={320}
      />
      <ListState
        query={list}
        errorTitle={t('phone.callbacks.failed')}
        empty={results.length === 0}
        emptyText={t('phone.callbacks.empty')}
      >
        <Stack gap="sm">
          {results.map((r) => (
            <CallbackCard
              key={r.id}
              request={r}
              busy={done.isPending && done.variables === r.id}
              onDone={() =>
                done.mutate(r.id, {
                  onSuccess: () => notifySuccess(t('phone.callbacks.marked', { name: r.farmer })),
                  onError: (err) => notifyError(errorMessage(err)),
                })
              }
            />
          ))}
        </Stack>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={list.data?.count ?? 0} onChange={setPage} />
      </ListState>
    </Stack>
  );
}
