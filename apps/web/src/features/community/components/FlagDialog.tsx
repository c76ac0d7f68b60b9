import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MODERATION_REASON_MAX } from '@kutu/contract/enums';
import type { CommunityPost } from '@kutu/contract';

/**
 * Asks for an optional reason before a post is flagged; its author sees the reason in "My Posts".
 * Keyed by the post where it is used, so every post starts with an empty reason.
 */
export function FlagDialog({
  post,
  loading,
  onCancel,
  onFlag,
}: {
  post: CommunityPost | null;
  loading: boolean;
  onCancel: () => void;
  onFlag: (reason: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');

  return (
    <Modal opened={post !== null} onClose={onCancel} title={t('community.dialogs.flagTitle')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onFlag(reason.trim() || undefined);
        }}
      >
        <Stack gap="sm">
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {post?.title}
          </Text>
          <Textarea
            label={t('community.fields.flagReason')}
            placeholder={t('community.fields.flagReasonPlaceholder')}
            autosize
            minRows={3}
            maxRows={8}
            maxLength={MODERATION_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onCancel} disabled={loading}>
              {t('community.actions.cancel')}
            </Button>
            <Button type="submit" color="red" loading={loading}>
              {t('community.actions.flag')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
