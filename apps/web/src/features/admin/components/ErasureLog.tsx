import { useState } from 'react';
import { Badge, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import type { ErasureEntry } from '@kutu/contract';
import { erasureCountKeys } from '@kutu/contract/enums';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { useErasures } from '../../../api/erasures.ts';

const PAGE_SIZE = 10;

/** The counts an erasure records, in the contract's order (`erasureCountKeys`); others are shown by their name. */
const rank = (key: string) => (erasureCountKeys as readonly string[]).indexOf(key) + 1 || 99;
const ordered = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(a) - rank(b));

function ErasureCard({ entry }: { entry: ErasureEntry }) {
  const { t } = useTranslation();
  const when = formatDateTime(entry.at);
  const counts = ordered(entry.counts);
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={when}>
      <Group justify="space-between" wrap="wrap" gap="xs" mb="xs">
        <Text fw={700}>{when}</Text>
        <Group gap="xs">
          <Badge variant="light">{t(`erasures.role.${entry.role}`)}</Badge>
          <Badge variant="light" color="gray">
            {t(`erasures.via.${entry.requested_via}`)}
          </Badge>
        </Group>
      </Group>
      {counts.length === 0 ? (
        <Text size="sm">{t('erasures.nothingElse')}</Text>
      ) : (
        <List size="sm" spacing={2}>
          {counts.map(([key, count]) => (
            <List.Item key={key}>
              {t(`erasures.counts.${key}`, { defaultValue: key })}: {count}
            </List.Item>
          ))}
        </List>
      )}
    </Card>
  );
}

/** The administrator's record of erased accounts (docs/privacy.md): nothing that identifies the person. */
export function ErasureLog() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useErasures(page, PAGE_SIZE);
  const results = list.data?.results ?? [];
  return (
    <Stack gap="md" component="section" aria-labelledby="erasures-title">
      <Title order={2} size="h3" id="erasures-title">
        {t('erasures.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('erasures.intro')}
      </Text>
      <ListState
        query={list}
        errorTitle={t('erasures.loadFailed')}
        empty={results.length === 0}
        emptyText={t('erasures.empty')}
      >
        <Stack gap="sm">
          {results.map((e) => (
            <ErasureCard key={e.id} entry={e} />
          ))}
        </Stack>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={list.data?.count ?? 0} onChange={setPage} />
      </ListState>
    </Stack>
  );
}
