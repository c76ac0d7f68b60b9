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
 * After any change: every field list, field and walk list loads again, those on no screen too, so the
 * phone's saved copy (lib/saved-queries.ts), read with no signal or after a reload, is not the old one.
 */
export function reloadFields(client: QueryClient) {
  return client.invalidateQueries({ queryKey: fieldKeys.all, refetchType: 'all' });
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
