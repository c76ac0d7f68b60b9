import type { ReactNode } from 'react';
import { Alert, Button, Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';

interface Props {
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
  /** True when the data arrived and holds nothing. */
  empty: boolean;
  emptyText: string;
  children: ReactNode;
}

/** Loading, error (with retry) and empty states for a list, around its content. */
export function QueryState({ isPending, error, refetch, empty, emptyText, children }: Props) {
  const { t } = useTranslation();
  if (isPending) {
    return (
      <Center p="lg">
        <Loader aria-label={t('community.loading')} />
      </Center>
    );
  }
  if (error) {
    return (
      <Alert color="red" title={t('community.loadError')}>
        <Text size="sm" mb="xs">
          {errorMessage(error)}
        </Text>
        <Button size="xs" variant="light" color="red" onClick={() => refetch()}>
          {t('community.actions.retry')}
        </Button>
      </Alert>
    );
  }
  if (empty) {
    return (
      <Text c="dimmed" ta="center" p="lg">
        {emptyText}
      </Text>
    );
  }
  return children;
}
