import { useEffect, useState } from 'react';
import { ActionIcon, Badge, Group, Image, NativeSelect, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TrainingLabel, TrainingSample } from '@kutu/contract';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { sampleImage, samplesQuery, useRelabelSample, useRemoveSample } from '../../../api/training.ts';
import { TrainingTable } from './TrainingTable.tsx';
import { labelColor, labelName, labelOptions } from './labels.ts';

/** A stored sample image (the route needs the bearer token, so it is fetched, not linked). */
function Thumb({ sample }: { sample: TrainingSample }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    const controller = new AbortController();
    sampleImage(sample.image_url, controller.signal)
      .then((blob) => {
        if (!blob) return;
        url = URL.createObjectURL(blob);
        setSrc(url);
      })
      .catch(() => {});
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [sample.image_url]);
  return <Image src={src} w={56} h={56} radius="sm" fit="cover" alt={labelName(t, sample.label)} fallbackSrc="" />;
}

/** The stored samples: paginated, filter by label, relabel and remove. */
export function SampleList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [label, setLabel] = useState<TrainingLabel | undefined>(undefined);
  const pageSize = 10;
  const list = useQuery(samplesQuery({ page, page_size: pageSize, label }));
  const data = list.data;
  const relabel = useRelabelSample();
  const remove = useRemoveSample();

  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Group justify="space-between">
          <Title order={3}>{t('training.sampleList')}</Title>
          <NativeSelect
            aria-label={t('training.filterLabel')}
            data={[{ value: '', label: t('training.allLabels') }, ...labelOptions(t)]}
            value={label ?? ''}
            onChange={(e) => {
              setLabel((e.currentTarget.value as TrainingLabel) || undefined);
              setPage(1);
            }}
          />
        </Group>
        <TrainingTable
          label={t('training.sampleList')}
          minWidth={600}
          columns={[null, t('training.label'), t('training.uploadedBy'), t('training.created'), null]}
          query={list}
          emptyText={t('training.noSamples')}
        >
          {data?.results.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td>
                <Thumb sample={s} />
              </Table.Td>
              <Table.Td>
                <Group gap="xs">
                  <Badge color={labelColor[s.label]}>{labelName(t, s.label)}</Badge>
                  {s.held_out && (
                    <Badge color="gray" variant="outline">
                      {t('training.heldOutBadge')}
                    </Badge>
                  )}
                  <NativeSelect
                    size="xs"
                    w={160}
                    aria-label={t('training.relabel', { id: s.id })}
                    data={labelOptions(t)}
                    value={s.label}
                    onChange={(e) =>
                      e.currentTarget.value !== s.label &&
                      relabel.mutate(
                        { id: s.id, label: e.currentTarget.value as TrainingLabel },
                        {
                          onSuccess: () => notifySuccess(t('training.relabelled')),
                          onError: (err) => notifyError(errorMessage(err)),
                        },
                      )
                    }
                  />
                </Group>
                {s.source_analysis_id && (
                  <Text size="xs" c="dimmed">
                    {t('training.fromAnalysis', { id: s.source_analysis_id })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{s.uploader?.username ?? '–'}</Table.Td>
              <Table.Td>{formatDateTime(s.created_at)}</Table.Td>
              <Table.Td>
                <ActionIcon
                  color="red"
                  variant="subtle"
                  aria-label={t('training.remove', { id: s.id })}
                  onClick={() =>
                    remove.mutate(s.id, {
                      onSuccess: () => notifySuccess(t('training.removed')),
                      onError: (err) => notifyError(errorMessage(err)),
                    })
                  }
                >
                  ✕
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </TrainingTable>
        <ListPagination page={page} pageSize={pageSize} count={data?.count ?? 0} onChange={setPage} />
      </Stack>
    </Paper>
  );
}
