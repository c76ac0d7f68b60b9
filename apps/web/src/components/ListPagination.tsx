import { Group, Pagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Page numbers under a list; hidden when everything fits on one page. */
export function ListPagination({
  page,
  pageSize,
  count,
  onChange,
}: {
  page: number;
  pageSize: number;
  count: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  const total = Math.max(1, Math.ceil(count / pageSize));
  if (count <= pageSize) return null;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(count, page * pageSize);
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {t('community.range', { from, to, count })}
      </Text>
      <Pagination size="sm" value={page} total={total} onChange={onChange} />
    </Group>
  );
}
