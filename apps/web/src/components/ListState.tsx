import type { ReactNode } from 'react';
import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/api.ts';

/** What ListState reads of a TanStack query. */
export interface ListQuery {
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
  data?: unknown;
}

/** A spinner that says "Loading…" to a screen reader: a list, a tab or a dialog on its way. */
export function Loading() {
  const { t } = useTranslation();
  return (
    <Center p="xl" role="status" aria-label={t('list.loading')}>
      <Loader />
    </Center>
  );
}

/**
 * Every list's "loading / error / empty": a loader while it loads, the error with a retry button, the
 * empty words once it holds nothing, and otherwise its children (the rows and the pager).
 */
export function ListState({
  query,
  empty = false,
  emptyText,
  errorTitle,
  loading,
  keepOnError = false,
  children,
}: {
  query: ListQuery;
  /** True when the data arrived and holds nothing. */
  empty?: boolean;
  /** What an empty list shows: words (dimmed, centred) or an element of its own. */
  emptyText?: ReactNode;
  /** The error's heading; "Could not load this list" by default. */
  errorTitle?: string;
  /** What shows while it loads, when a spinner would not do (a skeleton of the same height); the spinner by default. */
  loading?: ReactNode;
  /** A failed refetch keeps the rows already shown instead of the error (a polled list, a table being read). */
  keepOnError?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return loading ?? <Loading />;
  if (query.error && !(keepOnError && query.data !== undefined)) {
    return (
      <Alert color="red" title={errorTitle ?? t('list.loadError')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{errorMessage(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            {t('list.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (empty) {
    return typeof emptyText === 'string' ? (
      <Text c="dimmed" ta="center" p="xl">
        {emptyText}
      </Text>
    ) : (
      emptyText
    );
  }
  return children;
}
