import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';

/** A list's loader while it loads, or its error with a retry button; nothing once it has loaded. */
export function LoadingOrError({
  query,
  errorTitle,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  errorTitle: string;
}) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label={t('analysis.common.loading')} />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" title={errorTitle}>
        <Group>
          <Text size="sm">{errorMessage(query.error)}</Text>
          <Button size="xs" variant="light" onClick={() => void query.refetch()}>
            {t('analysis.common.retry')}
          </Button>
        </Group>
      </Alert>
    );
  }
  return null;
}
