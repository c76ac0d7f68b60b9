import { useEffect, useSyncExternalStore } from 'react';
import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { NotificationItem, NotificationList, ReadAllReply, StreamReady, StreamTokenReply } from '@kutu/contract';
import { notificationsApi } from '@kutu/contract/paths';
import { errorMessage, http } from '../lib/api.ts';
import { notifyError, notifySuccess } from '../lib/notify.ts';
import i18n from '../lib/i18n.ts';
import { LANGUAGE_SAVED } from '../lib/language-sync.ts';
import { queryClient } from '../lib/query-client.ts';
import { whenSettled } from '../lib/when-settled.ts';

export const notificationsKey = ['notifications'] as const;
/** Other screens whose numbers change with new notifications (bookings, analyses, training, expert verdicts). */
const affectedByNotifications = [['dashboard'], ['expert-reviews'], ['community', 'pending-count']] as const;
export const PAGE_SIZE = 20;
/** Polling when the live stream is not connected. */
export const POLL_MS = 30_000;

// The server writes each notification in the reader's language when it is read: a new language
// fetches the list again.
if (typeof window !== 'undefined') {
  window.addEventListener(LANGUAGE_SAVED, () => void queryClient.invalidateQueries({ queryKey: notificationsKey }));
}

/** Whether the live event stream is connected (polling is the fallback). */
let streamConnected = false;
const streamListeners = new Set<() => void>();
function setStreamConnected(value: boolean) {
  if (streamConnected === value) return;
  streamConnected = value;
  for (const l of streamListeners) l();
}
export function useStreamConnected() {
  return useSyncExternalStore(
    (l) => {
      streamListeners.add(l);
      return () => streamListeners.delete(l);
    },
    () => streamConnected,
  );
}

export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: [...notificationsKey, 'list'],
    queryFn: ({ pageParam, signal }) =>
      http.get<NotificationList>(notificationsApi.list, { page: pageParam, page_size: PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => last.next ?? undefined,
  });

/**
 * The caller's notifications, newest first. `query` is TanStack's result, not spread: a component renders
 * again only for the fields it reads (the bell for its count, not each refetch's start and end).
 * `poll` refetches every 30 s; the bell, mounted on every account screen, asks for it while the live
 * stream is not connected.
 */
export function useNotifications({ poll = false }: { poll?: boolean } = {}) {
  const query = useInfiniteQuery({ ...notificationsQuery(), refetchInterval: poll ? POLL_MS : false });
  const pages = query.data?.pages ?? [];
  return {
    query,
    items: pages.flatMap((p) => p.results),
    unreadCount: pages[0]?.unread_count ?? 0,
    total: pages[0]?.count ?? 0,
  };
}

type ListCache = InfiniteData<NotificationList, number>;

function markInCache(cache: ListCache | undefined, read: (n: NotificationItem) => boolean, unread: number) {
  if (!cache) return cache;
  return {
    ...cache,
    pages: cache.pages.map((p) => ({
      ...p,
      unread_count: unread,
      results: p.results.map((n) => (read(n) ? { ...n, read: true } : n)),
    })),
  };
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.put<NotificationItem>(notificationsApi.markReadPath(id)),
    onSuccess: (item) => {
      qc.setQueryData<ListCache>(notificationsQuery().queryKey, (cache) => {
        const wasUnread = cache?.pages.some((p) => p.results.some((n) => n.id === item.id && !n.read));
        const unread = Math.max(0, (cache?.pages[0]?.unread_count ?? 0) - (wasUnread ? 1 : 0));
        return markInCache(cache, (n) => n.id === item.id, unread);
      });
      notifySuccess(i18n.t('notifications.markedRead'));
      void qc.invalidateQueries({ queryKey: notificationsKey });
    },
    onError: (err) => notifyError(errorMessage(err)),
  });
}

export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => http.put<ReadAllReply>(notificationsApi.readAll),
    onSuccess: (reply) => {
      qc.setQueryData<ListCache>(notificationsQuery().queryKey, (cache) =>
        markInCache(cache, () => true, reply.unread_count),
      );
      notifySuccess(i18n.t('notifications.allMarkedRead'));
      void qc.invalidateQueries({ queryKey: notificationsKey });
    },
    onError: (err) => notifyError(errorMessage(err)),
  });
}

/**
 * How the list on the page compares with what `ready` says (the server reads it once the stream is
 * subscribed, so later changes arrive as events): a notification created meanwhile changes the newest id,
 * one read changes the count. 'missed' means the page was open while they happened.
 */
function listAgainst(qc: QueryClient, ready: StreamReady): 'current' | 'missed' | 'not loaded' {
  const first = qc.getQueryData(notificationsQuery().queryKey)?.pages[0];
  if (first === undefined) return 'not loaded';
  const current = first.unread_count === ready.unread_count && (first.results[0]?.id ?? null) === ready.latest_id;
  return current ? 'current' : 'missed';
}

/**
 * Keeps notifications live: once the page has settled, trades the access token for a one-time stream
 * token, opens the server's event stream and refreshes the list when something happens. On failure it
 * reconnects with a new token after a growing delay; meanwhile `useNotifications` polls.
 */
export function useNotificationStream() {
  const qc = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let failures = 0;

    const refresh = () => void qc.invalidateQueries({ queryKey: notificationsKey });
    const refreshAll = () => {
      refresh();
      for (const key of affectedByNotifications) void qc.invalidateQueries({ queryKey: key });
    };
    const retry = () => {
      if (stopped) return;
      failures += 1;
      timer = setTimeout(connect, Math.min(60_000, 1000 * 2 ** failures));
    };
    async function connect() {
      try {
        const { token } = await http.post<StreamTokenReply>(notificationsApi.streamToken);
        if (stopped) return;
        source = new EventSource(`${notificationsApi.stream}?token=${encodeURIComponent(token)}`);
        source.addEventListener('ready', (event) => {
          failures = 0;
          setStreamConnected(true);
          const list = listAgainst(qc, JSON.parse(event.data) as StreamReady);
          // What was missed may be a booking's approval or a verdict: the screens showing those refresh too.
          if (list === 'missed') refreshAll();
          else if (list === 'not loaded') refresh();
        });
        source.addEventListener('notification', refreshAll);
        source.addEventListener('read', refresh);
        // The token works once, so the browser's own reconnect cannot succeed: start over instead.
        source.onerror = () => {
          source?.close();
          source = null;
          setStreamConnected(false);
          retry();
        };
      } catch {
        retry();
      }
    }
    // The list's first page already shows the count; the stream keeps it live from once the page has
    // settled (lib/when-settled.ts), and its `ready` catches up on anything sent before.
    void whenSettled().then(() => {
      if (!stopped) void connect();
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
      setStreamConnected(false);
    };
  }, [qc]);
}
