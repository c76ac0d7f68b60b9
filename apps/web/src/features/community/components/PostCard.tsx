import type { ReactNode } from 'react';
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CommunityPost } from '@kutu/contract';
import { formatDate } from '../../../lib/format.ts';
import { cropLabel, diseaseLabel, urgencyColor, urgencyLabel } from './labels.ts';
import { PostAnalysis } from './PostAnalysis.tsx';
import { PostImage } from './PostImage.tsx';
import { StatusBadge } from './StatusBadge.tsx';

/** A post as a card: title, its photo, content clamped to 4 lines, crop, disease, urgency and its state. */
export function PostCard({ post, actions }: { post: CommunityPost; actions?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      data-testid={`post-${post.id}`}
      aria-label={post.title}
      component="article"
    >
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={4} style={{ overflowWrap: 'anywhere' }}>
            {post.title}
          </Title>
          <StatusBadge status={post.status} />
        </Group>
        <Text size="xs" c="dimmed">
          {t('community.by', { username: post.author })} · {formatDate(post.created_at)}
        </Text>
        {post.image && <PostImage postId={post.id} url={post.image} title={post.title} />}
        <Text size="sm" lineClamp={4} style={{ whiteSpace: 'pre-line' }}>
          {post.content}
        </Text>
        <Group gap={6}>
          <Badge variant="outline" color="green">
            {t('community.fields.crop')}: {cropLabel(t, post.crop_type)}
          </Badge>
          <Badge variant="outline" color="grape">
            {t('community.fields.disease')}: {diseaseLabel(t, post.disease_type, post.crop_type)}
          </Badge>
          <Badge variant="outline" color={urgencyColor[post.urgency_level]}>
            {t('community.fields.urgency')}: {urgencyLabel(t, post.urgency_level)}
          </Badge>
        </Group>
        {post.analysis && <PostAnalysis analysis={post.analysis} crop={post.crop_type} />}
        {post.status === 'flagged' && post.moderation_reason && (
          <Text size="xs" c="red">
            {t('community.flaggedReason', { reason: post.moderation_reason })}
          </Text>
        )}
        {actions && (
          <Group gap="xs" mt="auto" pt="xs">
            {actions}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
