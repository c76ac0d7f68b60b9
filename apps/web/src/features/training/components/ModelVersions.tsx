import { useState } from 'react';
import { Badge, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ModelVersion } from '@kutu/contract';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { useActivateVersion, versionsQuery } from '../../../api/training.ts';
import { TrainingTable } from './TrainingTable.tsx';
import { useFieldAccuracy } from '../../../api/review.ts';
import { agreementLine } from '../../../components/review/FieldAccuracy.tsx';
import { formatPercent } from '../../../lib/format.ts';

function metric(v: ModelVersion, key: 'accuracy' | 'macro_f1') {
  const value = v.metrics[key];
  return typeof value === 'number' ? formatPercent(value, 1) : '–';
}

/** Model versions with their numbers; any stored version can be activated (roll back or forward). */
export function ModelVersions() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const pageSize = 10;
  const list = useQuery(versionsQuery({ page, page_size: pageSize }));
  const data = list.data;
  const activate = useActivateVersion();
  const field = useFieldAccuracy();
  const fieldOf = (version: string) => field.data?.versions.find((f) => f.model_version === version);
  const activeCreated = data?.results.find((v) => v.is_active)?.created_at;

  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Title order={3}>{t('training.versions')}</Title>
        <TrainingTable
          label={t('training.versions')}
          minWidth={800}
          query={list}
          columns={[
            t('training.version'),
            t('training.accuracy'),
            'macro-F1',
            t('training.trainedBy'),
            t('training.samples'),
            t('training.decision'),
            t('review.field.column'),
            null,
          ]}
        >
          {data?.results.map((v) => (
            <Table.Tr key={v.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {v.version}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(v.created_at)}
                </Text>
                {v.is_active && <Badge color="green">{t('training.active')}</Badge>}
              </Table.Td>
              <Table.Td>{metric(v, 'accuracy')}</Table.Td>
              <Table.Td>{metric(v, 'macro_f1')}</Table.Td>
              <Table.Td>{v.trained_by?.username ?? t('training.baseModel')}</Table.Td>
              <Table.Td>{v.sample_count}</Table.Td>
              <Table.Td>
                <Text size="xs">{v.decision ? `${v.decision.accepted ? '✓' : '✗'} ${v.decision.reason}` : '–'}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="xs">{agreementLine(fieldOf(v.version))}</Text>
              </Table.Td>
              <Table.Td>
                {!v.is_active && (
                  <Button
                    size="xs"
                    variant="light"
                    loading={activate.isPending && activate.variables === v.id}
                    onClick={() =>
                      activate.mutate(v.id, {
                        onSuccess: () => notifySuccess(t('training.activated', { version: v.version })),
                        onError: (err) => notifyError(errorMessage(err)),
                      })
                    }
                  >
                    {activeCreated && v.created_at < activeCreated ? t('training.rollBack') : t('training.activate')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </TrainingTable>
        <ListPagination page={page} pageSize={pageSize} count={data?.count ?? 0} onChange={setPage} />
      </Stack>
    </Paper>
  );
}
