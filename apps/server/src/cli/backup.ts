/**
 * npm run backup -- --out FILE
 * npm run restore -- --from FILE [--force]
 *
 * Backup writes one archive (tar.gz) with the database, every stored object (photos, model files in
 * S3) and DATA_DIR/models, each with its SHA-256 in the archive's manifest, and says on its last line
 * what it holds. It refuses what is not an installation (DATA_DIR not set, no Kutu database there) and
 * creates nothing then. With the embedded database a running server takes the copy itself
 * (modules/backup/control.ts); without one running, this command opens the database. With PostgreSQL it
 * runs pg_dump. Restore checks the whole archive first and changes nothing when it is corrupt or
 * truncated; it refuses an installation that holds data unless --force, and a database in use; it is
 * all or nothing (modules/backup/restore.ts). Both use the server's configuration (DATA_DIR,
 * DATABASE_URL, STORAGE_URL), which must be set as the server's.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import { createStorage } from '../adapters/storage-url.ts';
import { BadArchiveError, holdingsText } from '../modules/backup/archive.ts';
import {
  type BackupResult,
  InUseError,
  NotEmptyError,
  restoreBackup,
  takeBackup,
} from '../modules/backup/backup.service.ts';
import { requestBackup } from '../modules/backup/control.ts';
import { databaseState, isPgliteDir } from '../modules/backup/database-dump.ts';
import { OWNER_UMASK } from '../lib/owner-only.ts';

/** Not a Kutu installation: nothing was backed up, and nothing was created. */
class NotAnInstallationError extends Error {}

interface Io {
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Takes a backup to `out` as configured: through the running server, or itself. Refuses (creating
 * nothing) without DATA_DIR, or where DATA_DIR and DATABASE_URL hold no Kutu database: a shell without
 * the server's settings must not write a "backup" of a new, empty one.
 */
export async function backupCommand(out: string, env: NodeJS.ProcessEnv = process.env): Promise<BackupResult> {
  if (!env.DATA_DIR) {
    throw new NotAnInstallationError(
      "DATA_DIR is not set. Run it with the server's settings: the DATA_DIR the server uses (and its DATABASE_URL and STORAGE_URL, if set).",
    );
  }
  const config = loadConfig(env);
  const file = path.resolve(out);
  const dbDir = path.join(config.dataDir, 'db');
  if (!config.databaseUrl) {
    const answered = await requestBackup(config.dataDir, file);
    if (answered) return answered;
  }
  const where = config.databaseUrl ? 'the database at DATABASE_URL' : `${config.dataDir}`;
  if (
    (!config.databaseUrl && !isPgliteDir(dbDir)) ||
    (await databaseState({ url: config.databaseUrl, pgliteDir: dbDir })) === 'none'
  ) {
    throw new NotAnInstallationError(
      `${where} holds no Kutu installation (no Kutu database${config.databaseUrl ? '' : ` in ${dbDir}`}). Set DATA_DIR${config.databaseUrl ? ' and DATABASE_URL' : ''} as the server has them.`,
    );
  }
  const database = await openDatabase({ url: config.databaseUrl, pgliteDir: dbDir });
  try {
    const storage = createStorage(config.storageUrl, config.dataDir);
    return await takeBackup({ database, storage, dataDir: config.dataDir }, file, new Date(), {
      nice: config.backup.nice,
    });
  } finally {
    await database.close();
  }
}

/** Parses the arguments, runs `backup` or `restore`; returns the exit code. */
export async function runBackupCli(command: 'backup' | 'restore', argv: string[], io: Io = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  let values: { out?: string; from?: string; force?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { out: { type: 'string' }, from: { type: 'string' }, force: { type: 'boolean' } },
    }));
  } catch (err) {
    stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const usage = command === 'backup' ? 'npm run backup -- --out FILE' : 'npm run restore -- --from FILE [--force]';
  const file = command === 'backup' ? values.out : values.from;
  if (!file) {
    stderr.write(`Usage: ${usage}\n`);
    return 2;
  }
  try {
    if (command === 'backup') {
      const r = await backupCommand(file, io.env);
      stdout.write(
        `Backup written: ${r.file} (${megabytes(r.size)}, ${r.files} files, ${r.seconds.toFixed(1)} s): ${holdingsText(r.holds)}.\n`,
      );
      return 0;
    }
    const env = io.env ?? process.env;
    if (!env.DATA_DIR) {
      stderr.write(
        "Nothing was changed: DATA_DIR is not set. Run it with the server's settings (DATA_DIR, and DATABASE_URL and STORAGE_URL if set).\n",
      );
      return 1;
    }
    const config = loadConfig(env);
    const manifest = await restoreBackup(
      path.resolve(file),
      {
        databaseUrl: config.databaseUrl,
        storage: createStorage(config.storageUrl, config.dataDir),
        dataDir: config.dataDir,
      },
      { force: values.force, log: (msg) => stdout.write(`${msg}\n`), onSignal: true },
    );
    const holds = manifest.holds ? `: ${holdingsText(manifest.holds)}` : '';
    stdout.write(`Restored the backup taken ${manifest.created_at}${holds}. Start Kutu as usual.\n`);
    return 0;
  } catch (err) {
    if (err instanceof BadArchiveError) {
      stderr.write(`Nothing was changed: ${file} cannot be restored because ${err.message}.\n`);
      return 1;
    }
    if (err instanceof NotEmptyError || err instanceof DatabaseInUseError || err instanceof InUseError) {
      stderr.write(`Nothing was changed: ${err.message}\n`);
      return 1;
    }
    if (err instanceof NotAnInstallationError) {
      stderr.write(`Nothing was backed up: ${err.message}\n`);
      return 1;
    }
    stderr.write(`${command} failed: ${(err as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Archives, the folders made for them and a restored installation: the owner's alone (docs/decisions/0125).
  process.umask(OWNER_UMASK);
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'backup' && command !== 'restore') {
    process.stderr.write('Usage: node apps/server/src/cli/backup.ts backup|restore …\n');
    process.exitCode = 2;
  } else {
    process.exitCode = await runBackupCli(command, rest);
  }
}
