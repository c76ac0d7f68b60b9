import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import {
  errorBody,
  idParam,
  notificationItem,
  notificationList,
  notificationsApi,
  notificationsQuery,
  readAllReply,
  streamQuery,
  streamTokenReply,
  type StreamEvent,
} from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { unauthenticated } from '../../lib/errors.ts';
import { caller } from '../../plugins/auth.ts';
import type { NotificationsService } from './notifications.service.ts';
import { createStreamTokens, STREAM_TOKEN_TTL_SECONDS } from './notifications.stream.ts';
import { errorReplies, guard, publicRoute } from '../../lib/route-schema.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's notifications service (the one whose listeners feed the event stream). */
    notifications: NotificationsService;
  }
}

/** A comment line this often keeps proxies from closing an idle stream. */
export const KEEP_ALIVE_MS = 25_000;
/**
 * Open streams per user (tabs and devices). A new one beyond this closes that user's oldest, which is
 * the likeliest to be dead (a phone that lost its network) and reconnects by itself if it is not (L10).
 */
export const MAX_STREAMS_PER_USER = 5;

const tags = ['notifications'];
const errors = errorReplies(400, 401, 403, 404);

function writeEvent(res: ServerResponse, event: StreamEvent, data: unknown, id?: number) {
  res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export function notificationsRoutes(
  app: App,
  {
    deps: { config, clock, sessions },
    services: { notifications },
  }: RouteContext<{ notifications: NotificationsService }>,
) {
  const streamTokens = createStreamTokens(config.jwt.accessSecret, clock);
  const openStreams = new Set<() => void>();
  const streamsOf = new Map<number, Array<() => void>>();
  app.decorate('notifications', notifications);
  // Open streams would keep the server from closing; end them first.
  app.addHook('preClose', async () => {
    for (const end of [...openStreams]) end();
  });

  app.get(
    notificationsApi.list,
    {
      schema: {
        tags,
        summary: "The caller's notifications, newest first, with the unread count",
        querystring: notificationsQuery,
        response: { 200: notificationList, ...errors },
      },
      config: guard(),
    },
    async (req) => notifications.list(caller(req).userId, req.query, await req.language()),
  );

  app.put(
    notificationsApi.markRead,
    {
      schema: {
        tags,
        summary: 'Marks one of the caller’s notifications as read (another user’s: 404)',
        params: idParam,
        response: { 200: notificationItem, ...errors },
      },
      config: guard(),
    },
    async (req) => notifications.markRead(caller(req).userId, req.params.id, await req.language()),
  );

  app.put(
    notificationsApi.readAll,
    {
      schema: {
        tags,
        summary: 'Marks all of the caller’s notifications as read',
        response: { 200: readAllReply, ...errors },
      },
      config: guard(),
    },
    async (req) => notifications.markAllRead(caller(req).userId),
  );

  app.post(
    notificationsApi.streamToken,
    {
      schema: {
        tags,
        summary: 'A one-time token (valid 60 s) for opening the event stream',
        description:
          'EventSource cannot send an Authorization header: trade the access token for this token and open ' +
          'GET /api/notifications/stream/?token=… with it. Each token opens one stream.',
        response: { 200: streamTokenReply, ...errors },
      },
      config: guard(),
    },
    async (req) => ({ token: await streamTokens.sign(caller(req)), expires_in: STREAM_TOKEN_TTL_SECONDS }),
  );

  app.get(
    notificationsApi.stream,
    {
      schema: {
        tags,
        summary: 'Server-sent events: new notifications as they happen',
        description:
          'text/event-stream. Authenticated by `?token=` from POST /api/notifications/stream-token/ (not by ' +
          "header). Events: `ready` {unread_count, latest_id} once connected (latest_id: the newest notification's " +
          'id, null if none); `notification` {…notification, unread_count} ' +
          'for each new one; `read` {unread_count} after notifications were marked read elsewhere. A comment ' +
          `line every ${KEEP_ALIVE_MS / 1000} s keeps the connection open. On error, get a new token and reconnect.`,
        querystring: streamQuery,
        response: { 200: z.string().describe('text/event-stream'), 400: errorBody, 401: errorBody },
      },
      // Public to the header check: the one-time `?token=` is checked below, an EventSource sends no header.
      config: publicRoute,
    },
    async (req, reply) => {
      const session = await streamTokens.verify(req.query.token);
      const { userId } = session;
      if (!(await sessions.isLive(session))) throw unauthenticated('errors.session.ended');

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 5000\n\n');

      const unsubscribe = notifications.subscribe((forUser, event) => {
        if (forUser !== userId || res.writableEnded) return;
        if (event.kind === 'created') {
          writeEvent(
            res,
            'notification',
            { ...event.notification, unread_count: event.unreadCount },
            event.notification.id,
          );
        } else {
          writeEvent(res, 'read', { unread_count: event.unreadCount });
        }
      });
      // Logout, a password change or reset and refresh-token reuse end the session: its streams close
      // at once in this process; the keep-alive tick asks again, which bounds it for other processes.
      const stopHearing = sessions.onEnded((ended) => {
        if ('sessionId' in ended ? ended.sessionId === session.sessionId : ended.userId === userId) end();
      });
      const keepAlive = setInterval(() => {
        if (!res.writableEnded) res.write(': keep-alive\n\n');
        sessions.isLive(session).then(
          (live) => live || end(),
          () => {},
        );
      }, KEEP_ALIVE_MS);
      keepAlive.unref();

      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(keepAlive);
        unsubscribe();
        stopHearing();
        openStreams.delete(end);
        const mine = streamsOf.get(userId) ?? [];
        if (mine.includes(end)) mine.splice(mine.indexOf(end), 1);
        if (mine.length === 0) streamsOf.delete(userId);
        if (!res.writableEnded) res.end();
      };
      const mine = streamsOf.get(userId) ?? [];
      streamsOf.set(userId, mine);
      while (mine.length >= MAX_STREAMS_PER_USER) mine.shift()?.();
      mine.push(end);
      openStreams.add(end);
      res.on('close', end);
      res.on('error', end);
      // Read once subscribed: whatever changes after these figures arrives as an event, so a page whose
      // list already shows them need not fetch it again.
      notifications.streamState(userId).then(
        (state) => {
          if (!res.writableEnded) writeEvent(res, 'ready', state);
        },
        () => end(),
      );
    },
  );
}
