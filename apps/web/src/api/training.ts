import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  FieldSetReply,
  ModelVersion,
  SampleCounts,
  TrainingJob,
  TrainingLabel,
  TrainingSample,
  TrainingUploadReply,
  Paginated,
} from '@kutu/contract';
import { trainingApi, trainingPath } from '@kutu/contract/paths';
import { fetchFile, http } from '../lib/api.ts';

/** Every training query starts with this key: one invalidation refreshes the page after a change. */
export const trainingKey = ['training'] as const;

export const countsQuery = () =>
  queryOptions({
    queryKey: [...trainingKey, 'counts'],
    queryFn: ({ signal }) => http.get<SampleCounts>(trainingApi.counts, undefined, signal),
  });

export const samplesQuery = (q: { page: number; page_size: number; label?: TrainingLabel }) =>
  queryOptions({
    queryKey: [...trainingKey, 'samples', q],
    queryFn: ({ signal }) => http.get<Paginated<TrainingSample>>(trainingApi.samples, q, signal),
  });

/** Polls every few seconds while a job is queued or running. */
export const jobsQuery = (q: { page: number; page_size: number }) =>
  queryOptions({
    queryKey: [...trainingKey, 'jobs', q],
    queryFn: ({ signal }) => http.get<Paginated<TrainingJob>>(trainingApi.jobs, q, signal),
    refetchInterval: (query) =>
      query.state.data?.results.some((j) => j.status === 'queued' || j.status === 'running') ? 3000 : false,
  });

export const versionsQuery = (q: { page: number; page_size: number }) =>
  queryOptions({
    queryKey: [...trainingKey, 'versions', q],
    queryFn: ({ signal }) => http.get<Paginated<ModelVersion>>(trainingApi.versions, q, signal),
  });

/** The held-back field photos by crop and the last field check (experts and administrators). */
export const fieldSetQuery = () =>
  queryOptions({
    queryKey: [...trainingKey, 'field-set'],
    queryFn: ({ signal }) => http.get<FieldSetReply>(trainingApi.fieldSet, undefined, signal),
  });

function useInvalidating<TArgs, TResult>(fn: (args: TArgs) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: trainingKey }),
  });
}

export function useUploadTrainingImages() {
  return useInvalidating((v: { files: File[]; label: TrainingLabel }) => {
    const form = new FormData();
    form.append('label', v.label);
    for (const f of v.files) form.append('image', f, f.name);
    return http.upload<TrainingUploadReply>(trainingApi.upload, form);
  });
}

export const useRelabelSample = () =>
  useInvalidating((v: { id: number; label: TrainingLabel }) =>
    http.patch<TrainingSample>(trainingPath(trainingApi.sample, { id: v.id }), { label: v.label }),
  );

export const useRemoveSample = () =>
  useInvalidating((id: number) => http.delete<void>(trainingPath(trainingApi.sample, { id })));

export const useStartTraining = () => useInvalidating(() => http.post<TrainingJob>(trainingApi.jobs));

export const useActivateVersion = () =>
  useInvalidating((id: number) => http.post<ModelVersion>(trainingPath(trainingApi.activateVersion, { id })));

/** An administrator activates a version the gate left to a person, confirming its field figures (0118). */
export const useConfirmedActivation = () =>
  useInvalidating((id: number) =>
    http.post<ModelVersion>(trainingPath(trainingApi.activateVersion, { id }), { confirm_field_figures: true }),
  );

/** A stored sample's photo (its route needs the bearer token, so it is fetched, not linked); null when refused. */
export async function sampleImage(url: string, signal?: AbortSignal): Promise<Blob | null> {
  const res = await fetchFile(url, { signal });
  return res.ok ? res.blob() : null;
}
