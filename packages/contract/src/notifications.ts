import { z } from 'zod';
import { isoDateTime, paginated, pageQuery } from './common.ts';
import { notificationTypes } from './enums.ts';

export { notificationsApi } from './paths.ts';

export const notificationType = z.enum(notificationTypes);

export const notificationItem = z.object({
  id: z.number().int(),
  type: notificationType,
  message: z.string(),
  date: isoDateTime.describe('When the notification was created (ISO 8601, UTC)'),
  read: z.boolean(),
  data: z
    .record(z.string(), z.unknown())
    .describe('Details for the type, e.g. booking_id, analysis_id or job_id; may be empty'),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationsQuery = pageQuery.extend({
  unread: z.enum(['true', 'false']).optional().describe('`true`: only unread notifications; left out: all'),
});
export type NotificationsQuery = z.input<typeof notificationsQuery>;

export const notificationList = paginated(notificationItem).extend({
  unread_count: z.number().int().describe("How many of the caller's notifications are unread (all pages)"),
});
export type NotificationList = z.infer<typeof notificationList>;

export const readAllReply = z.object({
  updated: z.number().int().describe('How many notifications this call marked as read'),
  unread_count: z.number().int(),
});
export type ReadAllReply = z.infer<typeof readAllReply>;

export const streamTokenReply = z.object({
  token: z.string().describe('Opens the event stream once: GET /api/notifications/stream/?token=…'),
  expires_in: z.number().int().describe('Seconds until the token can no longer open a stream'),
});
export type StreamTokenReply = z.infer<typeof streamTokenReply>;

export const streamQuery = z.object({
  token: z.string().min(1, 'A stream token is required').max(2000),
});

/** The stream's `ready` event: the figures a page compares with its list to know whether it is current. */
export const streamReady = z.object({
  unread_count: z.number().int(),
  latest_id: z.number().int().nullable().describe("The newest notification's id; null if the user has none"),
});
export type StreamReady = z.infer<typeof streamReady>;

/**
 * Server-sent events on the stream: `ready` once when connected (streamReady), `notification` for each
 * new one (a NotificationItem plus unread_count), `read` when notifications were marked read in another
 * tab ({unread_count}); comment lines keep the connection alive.
 */
export const streamEvents = ['ready', 'notification', 'read'] as const;
export type StreamEvent = (typeof streamEvents)[number];
