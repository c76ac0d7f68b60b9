import { lazy, useState } from 'react';
import { Button, Grid, Group, Modal, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMessageQuestion } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CommunityPost } from '@kutu/contract';
import { useSearchParams } from 'react-router';
import { approvedPostsQuery, myPostsQuery, postQuery } from '../../../api/community.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { PostCard } from '../components/PostCard.tsx';
import { type Filters, PostFilters } from '../components/PostFilters.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { Deferred, OnDemand } from '../../../components/OnDemand.tsx';

// The form and the dialogs bring the contract's schemas (zod): on a phone they open on a choice.
const PostForm = lazy(() => import('../components/PostForm.tsx').then((m) => ({ default: m.PostForm })));
const CommentDialog = lazy(() => import('../components/CommentDialog.tsx').then((m) => ({ default: m.CommentDialog })));
const CommentsDialog = lazy(() =>
  import('../components/CommentsDialog.tsx').then((m) => ({ default: m.CommentsDialog })),
);

const PAGE_SIZE = 6;

const positiveId = (v: string | null) => (v && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : null);
const MY_PAGE_SIZE = 5;

function MyPosts() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const q = useQuery(myPostsQuery({ page, page_size: MY_PAGE_SIZE }));
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} size="h4">
        {t('community.myPosts')}
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        {t('community.myPostsHint')}
      </Text>
      <ListState query={q} empty={q.data?.count === 0} emptyText={t('community.empty.mine')}>
        <Stack gap="sm" data-testid="my-posts">
          {q.data?.results.map((post) => (
            <PostCard key={post.id} post={post} />
          ))}
        </Stack>
        <ListPagination page={page} pageSize={MY_PAGE_SIZE} count={q.data?.count ?? 0} onChange={setPage} />
      </ListState>
    </Paper>
  );
}

/**
 * Make Post (farmer): on a wide screen the form and the farmer's own posts on the left, approved posts
 * on the right; on a phone the board first, the form behind "Ask the community", then My Posts.
 */
export default function MakePostPage() {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 62em)', undefined, { getInitialValueInEffect: false });
  const [asking, setAsking] = useState(false);
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<number | null>(null);
  const [commenting, setCommenting] = useState<number | null>(null);
  const q = useQuery(approvedPostsQuery({ ...filters, page, page_size: PAGE_SIZE }));
  // Dialogs follow the list's data, so they show fresh comments after a reload.
  const find = (id: number | null): CommunityPost | null => q.data?.results.find((p) => p.id === id) ?? null;
  // An expert's answer notified to the farmer opens here, on the answer (?post=&answer=, docs/decisions/0049).
  const [params, setParams] = useSearchParams();
  const linkedPost = positiveId(params.get('post'));
  const linked = useQuery({ ...postQuery(linkedPost ?? 0), enabled: linkedPost !== null });
  const closeViewing = () => {
    setViewing(null);
    if (linkedPost !== null) setParams({}, { replace: true });
  };

  const board = (
    <>
      <Group justify="space-between" mb="sm" align="flex-end">
        <Title order={3} size="h4">
          {t('community.approvedPosts')}
        </Title>
        <PostFilters
          value={filters}
          onChange={(f) => {
            setFilters(f);
            setPage(1);
          }}
        />
      </Group>
      <ListState query={q} empty={q.data?.count === 0} emptyText={t('community.empty.approved')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" data-testid="approved-posts">
          {q.data?.results.map((post) => (
            <PostCard
              key={post.id}
              post={post}
              actions={
                <>
                  <Button size="xs" variant="light" onClick={() => setViewing(post.id)}>
                    {t('community.actions.viewComments')}
                  </Button>
                  <Button size="xs" onClick={() => setCommenting(post.id)}>
                    {t('community.actions.comment')}
                  </Button>
                </>
              }
            />
          ))}
        </SimpleGrid>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={q.data?.count ?? 0} onChange={setPage} />
      </ListState>
    </>
  );

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('community.makePost')}
      </Title>
      {phone ? (
        <Stack>
          <Button leftSection={<IconMessageQuestion size={18} />} onClick={() => setAsking(true)}>
            {t('community.ask')}
          </Button>
          <div>{board}</div>
          <MyPosts />
          <Modal opened={asking} onClose={() => setAsking(false)} title={t('community.addPost')} fullScreen>
            <Deferred>
              <PostForm onPosted={() => setAsking(false)} />
            </Deferred>
          </Modal>
        </Stack>
      ) : (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack>
              <Paper withBorder p="md" radius="md">
                <Title order={3} size="h4" mb="sm">
                  {t('community.addPost')}
                </Title>
                <Deferred>
                  <PostForm />
                </Deferred>
              </Paper>
              <MyPosts />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>{board}</Grid.Col>
        </Grid>
      )}
      <OnDemand when={viewing !== null || linkedPost !== null}>
        <CommentsDialog
          post={linkedPost !== null ? (linked.data ?? null) : find(viewing)}
          answerId={linkedPost !== null ? positiveId(params.get('answer')) : null}
          onClose={closeViewing}
        />
      </OnDemand>
      <OnDemand when={commenting !== null}>
        <CommentDialog opened={commenting !== null} post={find(commenting)} onClose={() => setCommenting(null)} />
      </OnDemand>
    </Stack>
  );
}

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/community-strings.ts';
