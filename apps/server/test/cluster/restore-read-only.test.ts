import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTemporaryPostgres } from '../../../../scripts/postgres.ts';
import { createLocalStorage } from '../../src/adapters/storage.ts';
import { runBackupCli } from '../../src/cli/backup.ts';
import { openDatabase } from '../../src/db/client.ts';
import { takeBackup } from '../../src/modules/backup/backup.service.ts';
import { emptyPostgresDatabase } from '../support/installation.ts';

/** Text written to a stream, kept. */
function collector() {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += chunk;
      done();
    },
  });
  return { stream, text: () => text };
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

// psql stopping at an error part-way (here: a read-only database) once left pg_restore writing into a
// pipe nobody read: `npm run restore` never ended and left its journal and scratch folder behind.
describe('a PostgreSQL restore whose psql stops at an error', { timeout: 180_000 }, () => {
  let server: Awaited<ReturnType<typeof startTemporaryPostgres>>;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-restore-ro-'));
  const archive = path.join(work, 'backup.tar.gz');

  beforeAll(async () => {
    server = await startTemporaryPostgres();
    const source = await emptyPostgresDatabase(server.url);
    const database = await openDatabase({ url: source.url });
    await database.migrate();
    // Far more than a pipe holds (64 KiB), so pg_restore is still writing when psql stops.
    await database.execute(
      "create table filler as select g, repeat('rust', 50) as note from generate_series(1, 20000) g",
    );
    await takeBackup({ database, storage: createLocalStorage(path.join(work, 'uploads')), dataDir: work }, archive);
    await database.close();
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('ends with the error, removes its journal and scratch folder, and says the database is as it was', async () => {
    const target = await emptyPostgresDatabase(server.url);
    const name = new URL(target.url).pathname.slice(1);
    await query(target.url, 'create table kept (x int); insert into kept values (7)');
    await query(server.url, `alter database ${name} set default_transaction_read_only = on`);
    const dataDir = path.join(work, 'target');
    fs.mkdirSync(dataDir);
    const [stdout, stderr] = [collector(), collector()];
    const env = { DATA_DIR: dataDir, DATABASE_URL: target.url, PATH: process.env.PATH ?? '' };
    const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 90_000).unref());
    const code = await Promise.race([
      runBackupCli('restore', ['--from', archive, '--force'], { env, stdout: stdout.stream, stderr: stderr.stream }),
      hung,
    ]);
    expect(code, stdout.text() + stderr.text()).toBe(1);
    expect(stderr.text()).toMatch(/restore failed: psql failed: .*read-only transaction/);
    expect(stderr.text()).toContain('Nothing was changed: the database is as it was before the restore.');
    expect(fs.readdirSync(dataDir).filter((n) => n.startsWith('.restore') || n.includes('journal'))).toEqual([]);
    expect(await query(target.url, 'select x from kept')).toEqual([{ x: 7 }]);
  });
});
