import { type JobQueue, repeatJob } from '../../adapters/jobs.ts';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { BACKUP_JOB_LIMIT_MS } from './backup.schedule.ts';

/** The queue of the backup check: take a backup when the last one is BACKUP_EVERY_HOURS old. */
export const BACKUP_QUEUE = 'backup';
/** How often the worker asks whether a backup is due. */
const CHECK_INTERVAL_MS = 60 * 60_000;

export function backupJobs(_app: App, { deps: { jobs }, services: { backups } }: RouteContext) {
  // A large installation's archive takes a while to write and read back.
  jobs.handle(
    BACKUP_QUEUE,
    async () => {
      await backups.runIfDue();
    },
    { expireInSeconds: BACKUP_JOB_LIMIT_MS / 1000 },
  );
}

/** Asks now and then every hour whether a backup is due (processes that run jobs); returns a stop function. */
export function startBackupSchedule(
  jobs: JobQueue,
  everyHours: number,
  log: (msg: string, err: unknown) => void,
): () => void {
  return everyHours > 0 ? repeatJob(jobs, BACKUP_QUEUE, CHECK_INTERVAL_MS, log) : () => {};
}
