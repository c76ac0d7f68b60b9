import { lazy, useState } from 'react';
import { Alert, Anchor, Avatar, Grid, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { CommunityPost, ModerationStatus } from '@kutu/contract';
import { analysisApi } from '@kutu/contract/paths';
import { routes } from '../../../config/routes.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { moderationQueueQuery, postQuery } from '../../../api/community.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ModerationComment } from '../components/ModerationComment.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { StatusBadge } from '../components/StatusBadge.tsx';
import { cropLabel, diseaseLabel, urgencyLabel } from '../components/labels.ts';
import { PostAnalysis } from '../components/PostAnalysis.tsx';
import { PostImage } from '../components/PostImage.tsx';
import { AnalysisPhoto } from '../../../components/AnalysisPhoto.tsx';
import { Deferred } from '../../../components/OnDemand.tsx';

// The answer form checks with the contract's schema (zod): it loads just after the post shows (decision 0016).
const CommentForm = lazy(() => import('../components/CommentForm.tsx').then((m) => ({ default: m.CommentForm })));

const PAGE_SIZE = 10;

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function PostDetails({ post }: { post: CommunityPost }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" data-testid="post-details">
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h4">
          {t('community.postDetails')}
        </Title>
        <StatusBadge status={post.status} />
      </Group>
      <Stack gap="sm">
        <Detail label={t('community.fields.title')}>{post.title}</Detail>
        {post.image && <PostImage postId={post.id} url={post.image} title={post.title} />}
        <Detail label={t('community.fields.content')}>{post.content}</Detail>
        <Detail label={t('community.fields.crop')}>{cropLabel(t, post.crop_type)}</Detail>
        <Detail label={t('community.fields.disease')}>{diseaseLabel(t, post.disease_type, post.crop_type)}</Detail>
        <Detail label={t('community.fields.urgency')}>{urgencyLabel(t, post.urgency_level)}</Detail>
        {post.analysis && post.rust_detection !== null && (
          <Stack gap={6}>
            <PostAnalysis analysis={post.analysis} crop={post.crop_type} />
            {/* This page is for experts, who may see any analysis photo and where the model looked. */}
            <AnalysisPhoto
              id={post.rust_detection}
              imageUrl={analysisApi.imagePath(post.rust_detection)}
              heatmapUrl={post.analysis.has_heatmap ? analysisApi.heatmapPath(post.rust_detection) : null}
              showToggle
              size={200}
              alt={t('analysis.history.photoAlt')}
            />
          </Stack>
        )}
        <Text size="xs" c="dimmed">
          {t('community.by', { username: post.author })} · {formatDateTime(post.created_at)}
        </Text>
      </Stack>
    </Paper>
  );
}

function ExpertAnswers({ post }: { post: CommunityPost }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} size="h4" mb="sm">
        {t('community.dialogs.expertsTab')}
      </Title>
      <Stack gap="xs" mb="md">
        {post.expert_comments.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('community.dialogs.noExpertComments')}
          </Text>
        ) : (
          post.expert_comments.map((c) => (
            <Group key={c.id} gap="sm" align="flex-start" wrap="nowrap">
              <Avatar color="teal" radius="xl" size="sm">
                {c.username.charAt(0).toUpperCase()}
              </Avatar>
              <div style={{ minWidth: 0 }}>
                <Text size="xs" c="dimmed">
                  {c.username} · {formatDateTime(c.created_at)}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                  {c.content}
                </Text>
              </div>
            </Group>
          ))
        )}
      </Stack>
      <Deferred>
        <CommentForm
          postId={post.id}
          label={t('community.fields.answer')}
          placeholder={t('community.fields.answerPlaceholder')}
          submitLabel={t('community.actions.postAnswer')}
        />
      </Deferred>
    </Paper>
  );
}

function Comments({ postId }: { postId: number }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ModerationStatus | 'all'>('pending');
  const [page, setPage] = useState(1);
  const q = useQuery(moderationQueueQuery(postId, { status, page, page_size: PAGE_SIZE }));
  return (
    <Stack>
      <SegmentedControl
        value={status}
        onChange={(v) => {
          setStatus(v as ModerationStatus | 'all');
          setPage(1);
        }}
        data={(['pending', 'approved', 'flagged', 'all'] as const).map((s) => ({
          value: s,
          label: t(`community.status.${s}`),
        }))}
      />
      <ListState query={q} empty={q.data?.count === 0} emptyText={t('community.empty.comments')}>
        <Stack gap="sm">
          {q.data?.results.map((c) => (
            <ModerationComment key={c.id} comment={c} />
          ))}
        </Stack>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={q.data?.count ?? 0} onChange={setPage} />
      </ListState>
    </Stack>
  );
}

/** Post comments (expert): the post's details and answers on the left, its comments to moderate on the right. */
export default function PostCommentsPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const postId = Number(id);
  const valid = Number.isInteger(postId) && postId > 0;
  const q = useQuery({ ...postQuery(postId), enabled: valid });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('community.postComments')}
        </Title>
        <Anchor component={Link} to={routes.allPosts} size="sm">
          {t('community.allPosts')}
        </Anchor>
      </Group>
      {!valid ? (
        <Alert color="yellow">{t('community.postNotFound')}</Alert>
      ) : (
        <ListState query={q}>
          {q.data && (
            <Grid gap="lg">
              <Grid.Col span={{ base: 12, md: 5 }}>
                <Stack>
                  <PostDetails post={q.data} />
                  <ExpertAnswers post={q.data} />
                </Stack>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }}>
                <Title order={3} size="h4" mb="sm">
                  {t('community.dialogs.farmersTab')}
                </Title>
                <Comments postId={postId} />
              </Grid.Col>
            </Grid>
          )}
        </ListState>
      )}
    </Stack>
  );
}

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/community-strings.ts';
