import { Group, Pagination, Text } from '@mantine/core';

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
  const total = Math.max(1, Math.ceil(count / pageSize));
  if (count <= pageSize) return null;
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(count, page * pageSize);
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {from}–{to} of {count}
      </Text>
      <Pagination size="sm" value={page} total={total} onChange={onChange} />
    </Group>
  );
}
