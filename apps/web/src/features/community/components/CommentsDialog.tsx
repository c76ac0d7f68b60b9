import { Avatar, Badge, Group, Modal, Paper, SimpleGrid, Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CommunityPost, ModerationStatus } from '@kutu/contract';
import { formatDate } from '../../../lib/format.ts';

interface Entry {
  id: number;
  username: string;
  created_at: string;
  content: string;
  status?: ModerationStatus;
}

function CommentGrid({
  entries,
  emptyText,
  answerId = null,
}: {
  entries: Entry[];
  emptyText: string;
  answerId?: number | null;
}) {
  const { t } = useTranslation();
  if (entries.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="md">
        {emptyText}
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      {entries.map((c) => (
        <Paper
          key={c.id}
          withBorder
          p="sm"
          radius="md"
          data-testid={`comment-${c.id}`}
          data-answer={c.id === answerId || undefined}
          ref={c.id === answerId ? (el) => el?.scrollIntoView?.({ block: 'nearest' }) : undefined}
          style={c.id === answerId ? { borderColor: 'var(--mantine-color-green-7)', borderWidth: 2 } : undefined}
        >
          <Group gap="sm" mb={6} wrap="nowrap">
            <Avatar color="green" radius="xl" size="sm">
              {c.username.charAt(0).toUpperCase()}
            </Avatar>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={600} truncate>
                {c.username}
              </Text>
              <Text size="xs" c="dimmed">
                {formatDate(c.created_at)}
              </Text>
            </Stack>
            {c.status && c.status !== 'approved' && (
              <Badge size="xs" color={c.status === 'flagged' ? 'red' : 'yellow'} variant="light" ml="auto">
                {c.status === 'pending' ? t('community.dialogs.awaitingApproval') : t('community.status.flagged')}
              </Badge>
            )}
          </Group>
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {c.content.trim() ? c.content : t('community.dialogs.noContent')}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/**
 * View Comments: the farmers' and the experts' comments of a post, in two tabs. With `answerId` (the
 * expert answer a notification opens), the experts' tab is open on that answer.
 */
export function CommentsDialog({
  post,
  onClose,
  answerId = null,
}: {
  post: CommunityPost | null;
  onClose: () => void;
  answerId?: number | null;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={post !== null}
      onClose={onClose}
      title={post?.title ?? t('community.dialogs.commentsTitle')}
      size="lg"
    >
      {post && (
        <Tabs defaultValue={answerId ? 'experts' : 'farmers'}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="farmers">{t('community.dialogs.farmersTab')}</Tabs.Tab>
            <Tabs.Tab value="experts">{t('community.dialogs.expertsTab')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="farmers">
            <CommentGrid entries={post.farmer_comments} emptyText={t('community.dialogs.noFarmerComments')} />
          </Tabs.Panel>
          <Tabs.Panel value="experts">
            <CommentGrid
              entries={post.expert_comments}
              emptyText={t('community.dialogs.noExpertComments')}
              answerId={answerId}
            />
          </Tabs.Panel>
        </Tabs>
      )}
    </Modal>
  );
}
