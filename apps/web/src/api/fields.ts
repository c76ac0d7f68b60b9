import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { Field, FieldInput, FieldList, FieldPatch, WalkList } from '@kutu/contract';
import { fieldsApi } from '@kutu/contract/fields-paths';
import { http } from '../lib/api.ts';

/** Everything about fields sits under one key: a change reloads every list (and the offline copy keeps it). */
export const fieldKeys = {
  all: ['fields'] as const,
  list: (page: number, pageSize: number) => ['fields', 'list', page, pageSize] as const,
  detail: (id: number) => ['fields', 'detail', id] as const,
  walks: (id: number, page: number, pageSize: number) => ['fields', 'walks', id, page, pageSize] as const,
};

export const fieldsQuery = (page: number, pageSize = 10) =>
  queryOptions({
    queryKey: fieldKeys.list(page, pageSize),
    queryFn: ({ signal }) => http.get<FieldList>(fieldsApi.list, { page, page_size: pageSize }, signal),
    placeholderData: keepPreviousData,
  });

/** A field seen in a list already in the cache (the offline copy included), while its own query loads. */
function fieldFromLists(client: QueryClient, id: number) {
  for (const [, list] of client.getQueriesData<FieldList>({ queryKey: ['fields', 'list'] })) {
    const found = list?.results.find((f) => f.id === id);
    if (found) return found;
  }
  return undefined;
}

export const fieldQuery = (id: number) =>
  queryOptions({
    queryKey: fieldKeys.detail(id),
    queryFn: ({ signal }) => http.get<Field>(fieldsApi.detailPath(id), undefined, signal),
  });

/** One field; what a list already holds of it shows at once (and offline), then the field's own answer. */
export function useField(id: number) {
  const client = useQueryClient();
  return useQuery({
    ...fieldQuery(id),
    placeholderData: () => fieldFromLists(client, id),
  });
}

export const walksQuery = (fieldId: number, page: number, pageSize = 5) =>
  queryOptions({
    queryKey: fieldKeys.walks(fieldId, page, pageSize),
    queryFn: ({ signal }) => http.get<WalkList>(fieldsApi.walksPath(fieldId), { page, page_size: pageSize }, signal),
    placeholderData: keepPreviousData,
  });

/**
 * Loads a fields query again by its key with its options: one restored from the phone's saved copy
 * (lib/saved-queries.ts) and on no screen yet has its data but not the function that loads it.
 */
function refetchRestored(client: QueryClient, key: readonly unknown[]) {
  const [, part, a, b, c] = key as [string, string, number, number, number];
  if (part === 'list') return client.prefetchQuery(fieldsQuery(a, b));
  if (part === 'detail') return client.prefetchQuery(fieldQuery(a));
  if (part === 'walks') return client.prefetchQuery(walksQuery(a, b, c));
}

/**
 * After any change: every field list, field and walk list loads again, those on no screen too, so the
 * phone's saved copy, read with no signal or after a reload, is not the old one. A restored one is
 * loaded by its options: refetched as it is, it would fail with no queryFn and keep the old data.
 */
export async function reloadFields(client: QueryClient) {
  const restored = client.getQueryCache().findAll({ queryKey: fieldKeys.all, predicate: (q) => !q.options.queryFn });
  await client.invalidateQueries({ queryKey: fieldKeys.all, refetchType: 'none' });
  await Promise.all([
    client.refetchQueries({ queryKey: fieldKeys.all, predicate: (q) => !restored.includes(q) }),
    ...restored.map((q) => refetchRestored(client, q.queryKey)),
  ]);
}

function useReloadFields() {
  const client = useQueryClient();
  return () => reloadFields(client);
}

export function useCreateField() {
  const reload = useReloadFields();
  return useMutation({
    mutationFn: (body: FieldInput) => http.post<Field>(fieldsApi.list, body),
    onSuccess: reload,
  });
}

export function useUpdateField(id: number) {
  const reload = useReloadFields();
  return useMutation({
    mutationFn: (body: FieldPatch) => http.patch<Field>(fieldsApi.detailPath(id), body),
    onSuccess: reload,
  });
}

export function useRetireField() {
  const reload = useReloadFields();
  return useMutation({
    mutationFn: (id: number) => http.delete<void>(fieldsApi.detailPath(id)),
    onSuccess: reload,
  });
}
