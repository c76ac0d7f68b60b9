import { Center, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * What shows in place of the rows while the first page loads, when loading failed or when nothing
 * matches; null when there are rows to show. The table and the phone cards share it.
 */
export function RowsPlaceholder({
  loading,
  error,
  emptyText,
  count,
}: {
  loading: boolean;
  error: string | null;
  emptyText: string;
  count: number;
}) {
  const { t } = useTranslation();
  if (loading && count === 0)
    return (
      <Center py="md" role="status" aria-live="polite">
        <Loader size="sm" mr="xs" />
        <Text size="sm">{t('dataTable.loading')}</Text>
      </Center>
    );
  if (error)
    return (
      <Text c="red" ta="center" py="md" role="alert">
        {error}
      </Text>
    );
  if (count === 0)
    return (
      <Text c="dimmed" ta="center" py="md">
        {emptyText}
      </Text>
    );
  return null;
}
