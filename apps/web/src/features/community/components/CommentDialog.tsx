import { Modal, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CommunityPost } from '@kutu/contract';
import { CommentForm } from './CommentForm.tsx';

/** 'Write a comment on this post': the post summary and a 4-row comment box. */
export function CommentDialog({
  opened,
  post,
  onClose,
}: {
  opened: boolean;
  post: CommunityPost | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('community.dialogs.writeComment')} size="lg">
      {post ? (
        <Paper withBorder p="sm" mb="md" radius="md" bg="var(--mantine-color-gray-0)">
          <Text fw={600}>{post.title}</Text>
          <Text size="sm" lineClamp={3} c="dimmed">
            {post.content}
          </Text>
        </Paper>
      ) : (
        <Text c="dimmed" mb="md">
          {t('community.notices.noPostSelected')}
        </Text>
      )}
      <CommentForm
        key={post?.id ?? 'none'}
        postId={post?.id ?? null}
        label={t('community.fields.comment')}
        placeholder={t('community.fields.commentPlaceholder')}
        submitLabel={t('community.actions.submit')}
        onDone={onClose}
      />
    </Modal>
  );
}
