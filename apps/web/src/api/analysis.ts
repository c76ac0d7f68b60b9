import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContentLanguage,
  AnalysisList,
  AnalysisResult,
  EducationResource,
  EducationResourceInput,
  EducationResourceList,
  EducationResourceTranslationInput,
  OpenFollowUpList,
  ResourceTopic,
  TranslationLanguage,
} from '@kutu/contract';
import { analysisApi } from '@kutu/contract/paths';
import { ApiError, http, networkError, request } from '../lib/api.ts';
import { session } from '../lib/session.ts';
import i18n from '../lib/i18n.ts';
import { currentLanguage } from '../lib/language.ts';

export const analysisKeys = {
  all: ['analysis'] as const,
  list: (page: number, pageSize: number, fieldId: number | null = null) =>
    (fieldId === null
      ? ['analysis', 'list', page, pageSize]
      : ['analysis', 'list', page, pageSize, { field: fieldId }]) as readonly unknown[],
  detail: (id: number) => ['analysis', 'detail', id] as const,
  image: (id: number, position = 0) =>
    (position === 0 ? ['analysis', 'image', id] : ['analysis', 'image', id, position]) as readonly unknown[],
  heatmap: (id: number) => ['analysis', 'heatmap', id] as const,
  resources: ['education-resources'] as const,
};

/** A page of the farmer's analyses; with `fieldId`, of that field only (docs/decisions/0078). */
export const analysesQuery = (page: number, pageSize = 10, fieldId: number | null = null) =>
  queryOptions({
    queryKey: analysisKeys.list(page, pageSize, fieldId),
    queryFn: ({ signal }) =>
      http.get<AnalysisList>(analysisApi.list, { page, page_size: pageSize, field: fieldId }, signal),
    placeholderData: keepPreviousData,
  });

export const analysisQuery = (id: number) =>
  queryOptions({
    queryKey: analysisKeys.detail(id),
    queryFn: ({ signal }) => http.get<AnalysisResult>(analysisApi.detailPath(id), undefined, signal),
  });

/** The farmer's diagnoses a new photo may say it follows up (open reminders, docs/decisions/0044). */
export const openFollowUpsQuery = () =>
  queryOptions({
    queryKey: [...analysisKeys.all, 'open-follow-ups'] as const,
    queryFn: ({ signal }) => http.get<OpenFollowUpList>(analysisApi.openFollowUps, undefined, signal),
  });

export const useAnalyses = (page: number, pageSize = 10, fieldId: number | null = null) =>
  useQuery(analysesQuery(page, pageSize, fieldId));

/** One analysis by id, or (id null) the caller's newest one; `data` is null when there is none. */
export function useChosenOrLatestAnalysis(id: number | null) {
  const chosen = useQuery({ ...analysisQuery(id ?? 0), enabled: id !== null });
  const latest = useQuery({ ...analysesQuery(1, 1), enabled: id === null });
  if (id !== null) return { ...chosen, data: chosen.data ?? (chosen.isSuccess ? null : undefined) };
  return { ...latest, data: latest.data ? (latest.data.results[0] ?? null) : undefined };
}

/** The stored photo as an object URL (the request needs the bearer token, so <img src> cannot fetch it). */
export function useAnalysisImage(id: number, imageUrl: string, position = 0) {
  return useAuthorizedImage(analysisKeys.image(id, position), imageUrl);
}

/**
 * The answer as it stands now: the one given, until the farmer adds a photo of another leaf (the
 * field answer replaces it in the cache, for every screen that shows it).
 */
export function useCurrentAnalysis(result: AnalysisResult): AnalysisResult {
  const { data } = useQuery({ ...analysisQuery(result.id), initialData: result, staleTime: Number.POSITIVE_INFINITY });
  return data ?? result;
}

/** Adds a photo of another leaf of the same field to an unsure or close answer (docs/decisions/0040). */
/** Another leaf of the same field joins analysis `id`; the reply is the field's answer from all its leaves. */
export function addFieldPhoto(id: number, photo: { blob: Blob; filename: string }): Promise<AnalysisResult> {
  const form = new FormData();
  form.append('image', photo.blob, photo.filename);
  return http.upload<AnalysisResult>(analysisApi.photosPath(id), form);
}

export function useAddFieldPhoto(id: number) {
  const client = useQueryClient();
  return useMutation({
    // Fail at once with no signal (not wait paused): the photo then goes to the phone's queue.
    networkMode: 'always',
    mutationFn: (photo: { blob: Blob; filename: string }) => addFieldPhoto(id, photo),
    onSuccess: async (updated) => {
      client.setQueryData(analysisKeys.detail(id), updated);
      await client.invalidateQueries({ queryKey: ['analysis', 'list'] });
    },
  });
}

/** The heatmap of where the model looked, once asked for (`url` null: nothing to load). */
export function useAnalysisHeatmap(id: number, url: string | null, wanted: boolean) {
  return useAuthorizedImage(analysisKeys.heatmap(id), url ?? '', wanted && url !== null);
}

function useAuthorizedImage(queryKey: readonly unknown[], imageUrl: string, enabled = true) {
  return useQuery({
    queryKey,
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      const token = session.accessToken();
      const res = await fetch(imageUrl, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal });
      if (!res.ok) throw new ApiError(res.status, 'HTTP_ERROR', i18n.t('analysis.photoUnavailable'));
      return URL.createObjectURL(await res.blob());
    },
  });
}

export interface ResourceFilter {
  rustClass?: ResourceTopic;
  includeRetired?: boolean;
  /** The language of titles and descriptions, instead of the reader's (experts edit the English text). */
  language?: ContentLanguage;
  page: number;
  pageSize?: number;
}

export const resourcesQuery = (f: ResourceFilter) =>
  queryOptions({
    queryKey: [
      ...analysisKeys.resources,
      f.rustClass ?? 'all',
      f.includeRetired ?? false,
      f.language ?? 'reader',
      f.page,
      f.pageSize ?? 20,
    ],
    queryFn: ({ signal }) =>
      http.get<EducationResourceList>(
        analysisApi.resources,
        {
          rust_class: f.rustClass,
          include_retired: f.includeRetired ? 'true' : undefined,
          language: f.language,
          page: f.page,
          page_size: f.pageSize ?? 20,
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });

export const useResources = (f: ResourceFilter) => useQuery(resourcesQuery(f));

export function useSaveResource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: number; body: EducationResourceInput }) =>
      id
        ? http.put<EducationResource>(analysisApi.resourcePath(id), body)
        : http.post<EducationResource>(analysisApi.resources, body),
    onSuccess: () => client.invalidateQueries({ queryKey: analysisKeys.resources }),
  });
}

/** Writes (text) or removes (null) a resource's title and description in Kiswahili or Luganda. */
export function useSaveTranslation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      language,
      text,
    }: {
      id: number;
      language: TranslationLanguage;
      text: EducationResourceTranslationInput | null;
    }): Promise<unknown> =>
      text
        ? http.put<EducationResource>(analysisApi.resourceTranslationPath(id, language), text)
        : http.delete<void>(analysisApi.resourceTranslationPath(id, language)),
    onSuccess: () => client.invalidateQueries({ queryKey: analysisKeys.resources }),
  });
}

export function useRetireResource() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete<void>(analysisApi.resourcePath(id)),
    onSuccess: () => client.invalidateQueries({ queryKey: analysisKeys.resources }),
  });
}

/** Tells the server the farmer is looking at this result, so its notification stops counting as unread. */
export function useMarkResultSeen(id: number) {
  const client = useQueryClient();
  useEffect(() => {
    http
      .post<{ updated: number }>(analysisApi.seenPath(id))
      .then((r) => {
        if (r.updated > 0) void client.invalidateQueries({ queryKey: ['notifications'] });
      })
      .catch(() => {
        // Only the unread badge depends on it; the result is shown either way.
      });
  }, [id, client]);
}

export type UploadStage = 'uploading' | 'analysing';

/**
 * Sends the photo with upload progress (fetch cannot report it, XMLHttpRequest can). Once the bytes
 * are sent the stage becomes "analysing". A 401 (expired access token) is retried once through the
 * shared client, which refreshes the session.
 */
export function uploadForAnalysis(
  form: FormData,
  onProgress: (stage: UploadStage, fraction: number) => void,
): Promise<AnalysisResult> {
  return new Promise<AnalysisResult>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', analysisApi.detect);
    xhr.setRequestHeader('accept', 'application/json');
    // The result's advice and messages come in the language on screen, as with every other request.
    xhr.setRequestHeader('accept-language', currentLanguage());
    const token = session.accessToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress('uploading', e.loaded / e.total);
    };
    xhr.upload.onload = () => onProgress('analysing', 1);
    xhr.onerror = () => reject(networkError());
    xhr.onload = () => {
      if (xhr.status === 401 && token) {
        onProgress('analysing', 1);
        request<AnalysisResult>(analysisApi.detect, { method: 'POST', form }).then(resolve, reject);
        return;
      }
      let data: { error?: { code?: string; message?: string; fields?: Record<string, string> } } | null = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && data) {
        resolve(data as unknown as AnalysisResult);
        return;
      }
      const e = data?.error;
      reject(new ApiError(xhr.status, e?.code ?? 'HTTP_ERROR', e?.message ?? '', e?.fields ?? {}));
    };
    xhr.send(form);
  });
}
