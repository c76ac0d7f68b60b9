import { useState } from 'react';
import { Anchor, Table } from '@mantine/core';
import { Link } from 'react-router';
import { routes } from '../../../config/routes.ts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';
import { moderationLogQuery } from '../../../api/community.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';

const PAGE_SIZE = 20;

/** Every moderation action on posts and comments, newest first (experts only). */
export function ModerationLog() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useQuery(moderationLogQuery({ page, page_size: PAGE_SIZE }));
  return (
    <ListState query={q} empty={q.data?.count === 0} emptyText={t('community.empty.log')}>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('community.log.when')}</Table.Th>
              <Table.Th>{t('community.log.who')}</Table.Th>
              <Table.Th>{t('community.log.action')}</Table.Th>
              <Table.Th>{t('community.log.target')}</Table.Th>
              <Table.Th>{t('community.log.change')}</Table.Th>
              <Table.Th>{t('community.log.reason')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {q.data?.results.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                <Table.Td>{r.actor}</Table.Td>
                <Table.Td>{r.action}</Table.Td>
                <Table.Td>
                  {r.post_id !== null && r.post_title !== null ? (
                    <Anchor component={Link} to={routes.postComments(r.post_id)} size="sm">
                      {t(`community.log.${r.target_type}On`, { title: r.post_title })}
                    </Anchor>
                  ) : (
                    t(`community.log.${r.target_type}`, { id: r.target_id })
                  )}
                </Table.Td>
                <Table.Td>
                  {r.from_status} → {r.to_status}
                </Table.Td>
                <Table.Td>{r.reason ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPagination page={page} pageSize={PAGE_SIZE} count={q.data?.count ?? 0} onChange={setPage} />
    </ListState>
  );
}
