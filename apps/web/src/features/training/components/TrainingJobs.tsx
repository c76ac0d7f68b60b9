import { useState } from 'react';
import { Badge, Button, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TrainingJob, TrainingJobStatus } from '@kutu/contract';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { jobsQuery, useStartTraining } from '../../../api/training.ts';
import { TrainingTable } from './TrainingTable.tsx';
import { formatPercent } from '../../../lib/format.ts';

const statusColor: Record<TrainingJobStatus, string> = {
  queued: 'gray',
  running: 'blue',
  succeeded: 'green',
  rejected: 'orange',
  failed: 'red',
};

export function formatElapsed(seconds: number | null): string {
  if (seconds === null) return '';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return h > 0 ? `${h}h ${m}m ${rest}s` : m > 0 ? `${m}m ${rest}s` : `${rest}s`;
}

function pct(v: unknown) {
  return typeof v === 'number' ? formatPercent(v, 1) : '–';
}

/**
 * Where a running job is, 0–100: each stage has its share of the bar (the features take most of a
 * retraining), and moves within it by the trainer's done/total (photos, fit steps) or epoch/epochs.
 */
const STAGE_SPANS: Record<string, [number, number]> = {
  preparing: [0, 70],
  training: [70, 90],
  exporting: [90, 92],
  evaluating: [92, 100],
};
export function jobProgress(job: Pick<TrainingJob, 'stage' | 'epoch' | 'epochs' | 'progress'>): number {
  const done = job.progress?.done;
  const total = job.progress?.total;
  const within =
    typeof done === 'number' && typeof total === 'number' && total > 0
      ? Math.min(1, done / total)
      : job.epoch && job.epochs
        ? job.epoch / job.epochs
        : 0;
  const span = job.stage ? STAGE_SPANS[job.stage] : undefined;
  if (!span) return within * 100;
  return Math.round(span[0] + (span[1] - span[0]) * within);
}

/** The running job's progress: stage (in words, with its count), epoch x/y and elapsed time. */
function RunningJob({ job }: { job: TrainingJob }) {
  const { t } = useTranslation();
  const value = jobProgress(job);
  const stage = job.stage && job.stage in STAGE_SPANS ? t(`training.stages.${job.stage}`) : (job.stage ?? job.status);
  const done = job.progress?.done;
  const total = job.progress?.total;
  const count =
    job.stage === 'preparing' && typeof done === 'number' && typeof total === 'number'
      ? ` (${t('training.stageCount', { done, total })})`
      : '';
  return (
    <Paper withBorder p="sm" radius="md" aria-label={t('training.running')} data-testid="running-job">
      <Stack gap={6}>
        <Group justify="space-between">
          <Text fw={600}>{t('training.jobTitle', { id: job.id })}</Text>
          <Badge color={statusColor[job.status]}>{t(`training.status.${job.status}`)}</Badge>
        </Group>
        <Text size="sm">
          {t('training.stage')}: {stage}
          {count}
          {job.epochs && job.epochs > 1
            ? ` · ${t('training.epochOf', { epoch: job.epoch ?? 0, epochs: job.epochs })}`
            : ''}
          {job.elapsed_seconds !== null ? ` · ${t('training.elapsed')} ${formatElapsed(job.elapsed_seconds)}` : ''}
        </Text>
        <Progress value={value} animated={job.status === 'running'} aria-label={t('training.progress')} />
      </Stack>
    </Paper>
  );
}

/** Train now, the running job's progress, and the job history. */
export function TrainingJobs() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const pageSize = 5;
  const list = useQuery(jobsQuery({ page, page_size: pageSize }));
  const data = list.data;
  const start = useStartTraining();
  const active = data?.results.find((j) => j.status === 'queued' || j.status === 'running');

  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Group justify="space-between">
          <Title order={3}>{t('training.jobs')}</Title>
          <Button
            onClick={() =>
              start.mutate(undefined, {
                onSuccess: (job) => notifySuccess(t('training.started', { id: job.id })),
                onError: (err) => notifyError(errorMessage(err)),
              })
            }
            loading={start.isPending}
            disabled={Boolean(active)}
          >
            {t('training.trainNow')}
          </Button>
        </Group>
        {active && <RunningJob job={active} />}
        <TrainingTable
          label={t('training.jobHistory')}
          minWidth={640}
          columns={[
            '#',
            t('training.statusLabel'),
            t('training.startedBy'),
            t('training.created'),
            t('training.elapsed'),
            t('training.outcome'),
          ]}
          query={list}
          emptyText={t('training.noJobs')}
        >
          {data?.results.map((job) => (
            <Table.Tr key={job.id}>
              <Table.Td>{job.id}</Table.Td>
              <Table.Td>
                <Badge color={statusColor[job.status]}>{t(`training.status.${job.status}`)}</Badge>
              </Table.Td>
              <Table.Td>
                {job.started_by?.username ?? '–'}
                {job.trigger === 'auto' ? ` (${t('training.auto')})` : ''}
              </Table.Td>
              <Table.Td>{formatDateTime(job.created_at)}</Table.Td>
              <Table.Td>{formatElapsed(job.elapsed_seconds)}</Table.Td>
              <Table.Td>
                <Text size="sm">
                  {job.error ??
                    (job.result
                      ? t('training.comparison', {
                          version: job.candidate_version,
                          candidateF1: pct(job.result.candidate.macro_f1),
                          activeF1: pct(job.result.active?.macro_f1),
                          candidateAccuracy: pct(job.result.candidate.accuracy),
                          activeAccuracy: pct(job.result.active?.accuracy),
                        })
                      : '')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </TrainingTable>
        <ListPagination page={page} pageSize={pageSize} count={data?.count ?? 0} onChange={setPage} />
      </Stack>
    </Paper>
  );
}
