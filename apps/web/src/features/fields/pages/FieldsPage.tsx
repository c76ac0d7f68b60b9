import { lazy, useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { fieldsQuery } from '../../../api/fields.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { latestWalk, useWalkQueue } from '../../../lib/offline/walks.ts';
import { ListState } from '../../../components/ListState.tsx';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { FieldRow } from '../components/FieldRow.tsx';
import { WalkQueueNote } from '../components/WalkQueueNote.tsx';

// With the page's chunk: the fields screens' strings (the router waits for them).
export { screenStringsReady } from '../../../lib/fields-strings.ts';

const FieldForm = lazy(() => import('../components/FieldForm.tsx'));

const PAGE_SIZE = 10;

/** Started with the page's code (router.tsx). */
export function startQueries() {
  void queryClient.prefetchQuery(fieldsQuery(1, PAGE_SIZE));
}

/** "My fields": each field with its crop, age, last walk and next reminder; a field is added here. */
export default function FieldsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const list = useQuery(fieldsQuery(page, PAGE_SIZE));
  const queued = useWalkQueue();
  const add = (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setAdding(true)}>
      {t('fields.add')}
    </Button>
  );
  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('fields.title')}
        </Title>
        {add}
      </Group>
      <Text c="dimmed">{t('fields.intro')}</Text>
      <WalkQueueNote queued={queued} />
      <ListState
        query={list}
        errorTitle={t('fields.loadFailed')}
        empty={list.data?.count === 0}
        emptyText={
          <Card withBorder padding="xl" data-testid="fields-empty">
            <Stack align="center" gap="xs">
              <Text fw={500} ta="center">
                {t('fields.empty')}
              </Text>
              {add}
            </Stack>
          </Card>
        }
      >
        <Stack gap="sm">
          {list.data?.results.map((field) => (
            <FieldRow key={field.id} field={field} lastWalk={latestWalk(field, queued)} />
          ))}
          <ListPagination
            page={page}
            pageSize={PAGE_SIZE}
            count={list.data?.count ?? 0}
            onChange={setPage}
            disabled={list.isFetching}
          />
        </Stack>
      </ListState>
      <OnDemand when={adding}>
        <FieldForm
          opened={adding}
          onClose={() => setAdding(false)}
          onSaved={(field) => void navigate(routes.field(field.id))}
        />
      </OnDemand>
    </Stack>
  );
}
