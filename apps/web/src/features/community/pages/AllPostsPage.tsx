import { lazy, Suspense, useState } from 'react';
import { ActionIcon, Button, Group, SimpleGrid, Stack, Tabs, Title, Tooltip } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CommunityPost, PostAction } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { allPostsQuery, useModeratePost } from '../../../api/community.ts';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { PostCard } from '../components/PostCard.tsx';
import { type Filters, PostFilters } from '../components/PostFilters.tsx';
import { ListState, Loading } from '../../../components/ListState.tsx';

// The log is a second tab most visits never open: it loads when opened (the route's byte budget).
// Opened on a choice: the dialog and Mantine's modal stay out of the screen's first download.
const FlagDialog = lazy(() => import('../components/FlagDialog.tsx').then((m) => ({ default: m.FlagDialog })));
const ModerationLog = lazy(() => import('../components/ModerationLog.tsx').then((m) => ({ default: m.ModerationLog })));

const PAGE_SIZE = 9;

/** The actions that apply to each state (the server refuses the others with 409). */
const actionsFor: Record<CommunityPost['status'], PostAction[]> = {
  pending: ['flag', 'approve'],
  flagged: ['unflag', 'approve'],
  approved: ['flag'],
};
const notices: Record<PostAction, { ok: string; failed: string }> = {
  flag: { ok: 'community.notices.postFlagged', failed: 'community.notices.postNotFlagged' },
  unflag: { ok: 'community.notices.postUnflagged', failed: 'community.notices.postNotUnflagged' },
  approve: { ok: 'community.notices.postApproved', failed: 'community.notices.postNotApproved' },
};
const buttonColor: Record<PostAction, string> = { flag: 'red', unflag: 'gray', approve: 'green' };

function Posts() {
  const { t } = useTranslation();
  // Experts come here to moderate: the queue of pending posts first.
  const [filters, setFilters] = useState<Filters>({ status: 'pending' });
  const [page, setPage] = useState(1);
  const q = useQuery(allPostsQuery({ ...filters, page, page_size: PAGE_SIZE }));
  const moderate = useModeratePost();
  // Flagging asks for a reason first (optional); the other actions run at once.
  const [flagging, setFlagging] = useState<CommunityPost | null>(null);

  function run(post: CommunityPost, action: PostAction, reason?: string) {
    moderate.mutate(
      { id: post.id, action, reason },
      {
        onSuccess: () => {
          if (action === 'flag') setFlagging(null);
          notifySuccess(t(notices[action].ok), t('community.notices.success'));
        },
        // The spec's notice is the title; the server says why (e.g. the post changed meanwhile).
        onError: (err) => notifyError(errorMessage(err), t(notices[action].failed)),
      },
    );
  }

  return (
    <Stack>
      <PostFilters
        withStatus
        value={filters}
        onChange={(f) => {
          setFilters(f);
          setPage(1);
        }}
      />
      <ListState query={q} empty={q.data?.count === 0} emptyText={t('community.empty.all')}>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="all-posts">
          {q.data?.results.map((post) => (
            <PostCard
              key={post.id}
              post={post}
              actions={
                <Group gap="xs" w="100%">
                  {actionsFor[post.status].map((action) => (
                    <Button
                      key={action}
                      size="xs"
                      variant={action === 'approve' ? 'filled' : 'light'}
                      color={buttonColor[action]}
                      loading={
                        moderate.isPending && moderate.variables?.id === post.id && moderate.variables.action === action
                      }
                      onClick={() => (action === 'flag' ? setFlagging(post) : run(post, action))}
                    >
                      {t(`community.actions.${action}`)}
                    </Button>
                  ))}
                  {post.status === 'approved' && (
                    <Tooltip label={t('community.actions.openComments')}>
                      <ActionIcon
                        component={Link}
                        to={routes.postComments(post.id)}
                        variant="light"
                        ml="auto"
                        aria-label={t('community.actions.openComments')}
                      >
                        <IconMessageCircle size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              }
            />
          ))}
        </SimpleGrid>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={q.data?.count ?? 0} onChange={setPage} />
      </ListState>
      <OnDemand when={flagging !== null}>
        <FlagDialog
          key={flagging?.id ?? 'closed'}
          post={flagging}
          loading={moderate.isPending && moderate.variables?.action === 'flag'}
          onCancel={() => setFlagging(null)}
          onFlag={(reason) => flagging && run(flagging, 'flag', reason)}
        />
      </OnDemand>
    </Stack>
  );
}

/** All Posts (expert): every post with the moderation actions of its state, and the moderation log. */
export default function AllPostsPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('community.allPosts')}
      </Title>
      <Tabs defaultValue="posts" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="posts">{t('community.allPosts')}</Tabs.Tab>
          <Tabs.Tab value="log">{t('community.log.title')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="posts">
          <Posts />
        </Tabs.Panel>
        <Tabs.Panel value="log">
          <Suspense fallback={<Loading />}>
            <ModerationLog />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/community-strings.ts';
