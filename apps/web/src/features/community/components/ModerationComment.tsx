import { useState } from 'react';
import { Avatar, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { COMMENT_MAX } from '@kutu/contract/enums';
import type { CommentAction, ResponseItem } from '@kutu/contract';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useModerateComment } from '../../../api/community.ts';
import { StatusBadge } from './StatusBadge.tsx';

const notices: Record<CommentAction, { ok: string; failed: string }> = {
  approve: { ok: 'community.notices.commentApproved', failed: 'community.notices.commentNotApproved' },
  flag: { ok: 'community.notices.commentFlagged', failed: 'community.notices.commentNotFlagged' },
};

/** One farmer comment under moderation: Flag, Approve and an optional expert comment sent with either. */
export function ModerationComment({ comment }: { comment: ResponseItem }) {
  const { t } = useTranslation();
  const [expertComment, setExpertComment] = useState('');
  const moderate = useModerateComment();
  const actions: CommentAction[] =
    comment.status === 'pending' ? ['flag', 'approve'] : comment.status === 'approved' ? ['flag'] : ['approve'];

  function run(action: CommentAction) {
    moderate.mutate(
      { id: comment.id, action, expertComment },
      {
        onSuccess: () => {
          notifySuccess(t(notices[action].ok), t('community.notices.success'));
          setExpertComment('');
        },
        onError: (err) => notifyError(errorMessage(err), t(notices[action].failed)),
      },
    );
  }

  return (
    <Paper withBorder p="md" radius="md" data-testid={`moderation-comment-${comment.id}`}>
      <Stack gap="xs">
        <Group gap="sm" wrap="nowrap">
          <Avatar color="green" radius="xl" size="sm">
            {comment.username.charAt(0).toUpperCase()}
          </Avatar>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} truncate>
              {comment.username}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(comment.created_at)}
            </Text>
          </Stack>
          <Group ml="auto">
            <StatusBadge status={comment.status} />
          </Group>
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {comment.content.trim() ? comment.content : t('community.dialogs.noContent')}
        </Text>
        <Textarea
          label={t('community.fields.expertComment')}
          placeholder={t('community.fields.expertCommentPlaceholder')}
          autosize
          minRows={2}
          maxLength={COMMENT_MAX}
          value={expertComment}
          onChange={(e) => setExpertComment(e.currentTarget.value)}
        />
        <Group justify="flex-end" gap="xs">
          {actions.map((action) => (
            <Button
              key={action}
              size="xs"
              color={action === 'approve' ? 'green' : 'red'}
              variant={action === 'approve' ? 'filled' : 'light'}
              loading={moderate.isPending && moderate.variables?.action === action}
              onClick={() => run(action)}
            >
              {t(`community.actions.${action}`)}
            </Button>
          ))}
        </Group>
      </Stack>
    </Paper>
  );
}
