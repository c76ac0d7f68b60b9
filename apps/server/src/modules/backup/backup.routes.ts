import { backupApi, backupStatus } from '@kutu/contract';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { createBackupSchedule } from './backup.schedule.ts';
import { errorReplies, guard } from '../../lib/route-schema.ts';

/** The scheduled backups, for administrators. */
export function backupRoutes(
  app: App,
  { services: { backups } }: RouteContext<{ backups: ReturnType<typeof createBackupSchedule> }>,
) {
  app.get(
    backupApi.status,
    {
      schema: {
        tags: ['admin'],
        description:
          'The scheduled backups: settings, the newest verified one (when, how large) and the last ten with their outcome.',
        response: { 200: backupStatus, ...errorReplies(401, 403) },
      },
      config: guard('admin'),
    },
    () => backups.status(),
  );
}
