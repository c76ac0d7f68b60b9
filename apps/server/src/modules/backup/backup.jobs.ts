import type { JobQueue } from '../../adapters/jobs.ts';
import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import { BACKUP_JOB_LIMIT_MS, type createBackupSchedule } from './backup.schedule.ts';

/** The queue of the backup check: take a backup when the last one is BACKUP_EVERY_HOURS old. */
export const BACKUP_QUEUE = 'backup';
/** How often the worker asks whether a backup is due. */
const CHECK_INTERVAL_MS = 60 * 60_000;
/** The first check waits for the start to settle (and a short-lived process, a test's, takes none). */
const FIRST_CHECK_MS = 10 * 60_000;

export function backupJobs(
  _app: App,
  { deps: { jobs }, services: { backups } }: RouteContext<{ backups: ReturnType<typeof createBackupSchedule> }>,
) {
  // A large installation's archive takes a while to write and read back.
  jobs.handle(
    BACKUP_QUEUE,
    async () => {
      await backups.runIfDue();
    },
    { expireInSeconds: BACKUP_JOB_LIMIT_MS / 1000 },
  );
}

/** Asks 10 minutes after start and then every hour whether a backup is due; returns a stop function. */
export function startBackupSchedule(
  jobs: Pick<JobQueue, 'send'>,
  everyHours: number,
  log: (msg: string, err: unknown) => void,
): () => void {
  if (everyHours <= 0) return () => {};
  const tick = () => void jobs.send(BACKUP_QUEUE, {}).catch((err) => log(`${BACKUP_QUEUE} not queued`, err));
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    tick();
    interval = setInterval(tick, CHECK_INTERVAL_MS);
    interval.unref();
  }, FIRST_CHECK_MS);
  first.unref();
  return () => {
    clearTimeout(first);
    clearInterval(interval);
  };
}
