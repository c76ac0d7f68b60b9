import { backupApi, backupStatus } from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { errorReplies, security } from '../../lib/route-schema.ts';

/** The scheduled backups, for administrators. */
export function backupRoutes(app: App, { services: { backups } }: RouteContext) {
  app.get(
    backupApi.status,
    {
      schema: {
        tags: ['admin'],
        security,
        description:
          'The scheduled backups: settings, the newest verified one (when, how large) and the last ten with their outcome.',
        response: { 200: backupStatus, ...errorReplies(401, 403) },
      },
      onRequest: app.requireRole('admin'),
    },
    () => backups.status(),
  );
}
