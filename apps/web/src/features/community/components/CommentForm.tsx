import { useState } from 'react';
import { Button, Group, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { commentCreateBody, COMMENT_MAX } from '@kutu/contract';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateComment } from '../../../api/community.ts';
import { translateMessage } from '../../../lib/validation.ts';

/**
 * A comment box for a post (farmers' comments and experts' answers go through the same call). Empty
 * comments are refused here with the server's own message; without a post it says 'No post selected'.
 */
export function CommentForm({
  postId,
  label,
  placeholder,
  submitLabel,
  onDone,
}: {
  postId: number | null;
  label: string;
  placeholder: string;
  submitLabel: string;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateComment();

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (postId === null) {
      notifyError(t('community.notices.noPostSelected'), t('community.notices.error'));
      return;
    }
    const parsed = commentCreateBody.safeParse({ content });
    if (!parsed.success) {
      const first = parsed.error.issues[0]?.message;
      setError(first ? translateMessage(first) : null);
      return;
    }
    create.mutate(
      { postId, body: parsed.data },
      {
        onSuccess: () => {
          notifySuccess(t('community.notices.commentSubmitted'), t('community.notices.success'));
          setContent('');
          setError(null);
          onDone?.();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.fields.content) setError(err.fields.content);
          notifyError(errorMessage(err), t('community.notices.error'));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Textarea
        label={label}
        placeholder={placeholder}
        rows={4}
        maxLength={COMMENT_MAX}
        value={content}
        onChange={(e) => {
          setContent(e.currentTarget.value);
          if (error) setError(null);
        }}
        error={error}
      />
      <Group justify="flex-end" mt="sm">
        <Button type="submit" loading={create.isPending}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
