import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FORMER_MEMBER } from '@kutu/contract';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { createLocalStorage, type FileStorage } from '../../adapters/storage.ts';
import { analyses, bookings, deliveries, expertReviews, modelVersions, users } from '../../db/schema/index.ts';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import {
  emptyPostgresDatabase,
  everyRow,
  populateInstallation,
  storedChecksums,
} from '../../../test/support/installation.ts';
import { startS3Server } from '../../../test/support/s3.ts';
import { createUser } from '../../../test/support/users.ts';
import { extractArchive, MANIFEST, verifyArchive, writeArchive } from './archive.ts';
import { restoreBackup, takeBackup } from './backup.service.ts';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** A fresh installation to restore into: an empty DATA_DIR and (on PostgreSQL) an empty database. */
async function emptyInstallation(storage?: FileStorage) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-restored-'));
  const pgDb = onPostgres ? await emptyPostgresDatabase(process.env.TEST_DATABASE_URL!) : null;
  return {
    target: { dataDir, databaseUrl: pgDb?.url, storage: storage ?? createLocalStorage(path.join(dataDir, 'uploads')) },
    /** The restored database, opened as the server would open it. */
    open: () => openDatabase(pgDb ? { url: pgDb.url } : { pgliteDir: path.join(dataDir, 'db') }),
    /** Every row of the restored database (test/support/installation.ts's `everyRow`). */
    async rows() {
      const restored = await this.open();
      try {
        return await everyRow(restored);
      } finally {
        await restored.close();
      }
    },
    async drop() {
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// Each test copies and restores a whole installation, twice in one of them: slow on a busy machine.
describe('backup and restore drill', { timeout: 120_000 }, () => {
  let t: TestContext;
  let work: string;
  let archive: string;
  let rows: Record<string, string[]>;
  let photos: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    await populateInstallation(t);
    // Nothing may change the source between its copy and the comparison: the queue's upkeep stops.
    await t.deps.jobs.stop(1000);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-backups-'));
    archive = path.join(work, 'kutu.tar.gz');
    await takeBackup(
      {
        database: t.deps.database,
        storage: t.deps.storage,
        dataDir: t.dataDir,
      },
      archive,
    );
    rows = await everyRow(t.deps.database);
    photos = await storedChecksums(t.deps.storage);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('brings an empty installation back to every row and every photo of the populated one', async () => {
    const { db } = t.deps.database;
    for (const table of [users, analyses, expertReviews, bookings, deliveries, modelVersions]) {
      expect((await db.select({ n: count() }).from(table))[0]!.n).toBeGreaterThan(0);
    }
    expect(Object.keys(photos).filter((k) => k.startsWith('analyses/')).length).toBeGreaterThanOrEqual(2);

    const inst = await emptyInstallation();
    try {
      await restoreBackup(archive, inst.target);
      expect(await inst.rows()).toEqual(rows);
      expect(await storedChecksums(inst.target.storage)).toEqual(photos);
      const models = (dir: string) => fs.readdirSync(path.join(dir, 'models'), { recursive: true }).sort();
      expect(models(inst.target.dataDir)).toEqual(models(t.dataDir));
    } finally {
      await inst.drop();
    }
  });

  it('refuses an installation that holds data unless forced, and then replaces it', async () => {
    const inst = await emptyInstallation();
    try {
      await restoreBackup(archive, inst.target);
      const stray = await inst.target.storage.put('analyses/stray', Buffer.from('not in the backup'), 'jpg');
      await expect(restoreBackup(archive, inst.target)).rejects.toThrow(
        /This installation is not empty \(it holds data, \d+ stored files, model files\)\. .*--force/,
      );
      expect(await inst.target.storage.exists(stray)).toBe(true);
      await restoreBackup(archive, inst.target, { force: true });
      expect(await storedChecksums(inst.target.storage)).toEqual(photos);
    } finally {
      await inst.drop();
    }
  });

  it('leaves the installation as it was when a forced restore fails to load the database', async () => {
    // An archive whose files all match its manifest, but whose database dump stops half-way.
    const staging = path.join(work, 'bad-dump');
    const manifest = await verifyArchive(archive);
    await extractArchive(archive, staging, manifest);
    const dump = path.join(staging, manifest.database_file);
    fs.truncateSync(dump, Math.floor(fs.statSync(dump).size / 2));
    fs.rmSync(path.join(staging, MANIFEST));
    const bad = path.join(work, 'bad-dump.tar.gz');
    const { files: _files, format: _format, version: _version, ...meta } = manifest;
    await writeArchive(staging, bad, meta);

    const inst = await emptyInstallation();
    try {
      await restoreBackup(archive, inst.target);
      await expect(restoreBackup(bad, inst.target, { force: true })).rejects.toThrow();
      expect(await inst.rows()).toEqual(rows);
      expect(await storedChecksums(inst.target.storage)).toEqual(photos);
      expect(fs.readdirSync(inst.target.dataDir).filter((n) => n.startsWith('.restore'))).toEqual([]);
    } finally {
      await inst.drop();
    }
  });

  it('refuses to restore over a database that a running server has open, changing nothing', async () => {
    const inst = await emptyInstallation();
    try {
      // PostgreSQL: the test app's own database, open in its pool; PGlite: a directory another live process holds.
      const target = onPostgres ? { ...inst.target, databaseUrl: t.deps.database.url } : inst.target;
      if (!onPostgres) {
        await restoreBackup(archive, inst.target);
        fs.writeFileSync(path.join(inst.target.dataDir, 'db.lock'), String(process.ppid));
      }
      const before = onPostgres ? await everyRow(t.deps.database) : null;
      await expect(restoreBackup(archive, target, { force: true })).rejects.toThrow(/open in another|running/);
      if (before) expect(await everyRow(t.deps.database)).toEqual(before);
    } finally {
      fs.rmSync(path.join(inst.target.dataDir, 'db.lock'), { force: true });
      await inst.drop();
    }
  });

  it('refuses a corrupt and a truncated archive with the reason, changing nothing', async () => {
    const whole = fs.readFileSync(archive);
    const corrupt = path.join(work, 'corrupt.tar.gz');
    const flipped = Buffer.from(whole);
    flipped[Math.floor(whole.length / 2)]! ^= 0xff;
    fs.writeFileSync(corrupt, flipped);
    const truncated = path.join(work, 'truncated.tar.gz');
    fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));

    const inst = await emptyInstallation();
    try {
      const marker = path.join(inst.target.dataDir, 'models', 'keep.txt');
      fs.mkdirSync(path.dirname(marker), { recursive: true });
      fs.writeFileSync(marker, 'kept');
      const before = fs.readdirSync(inst.target.dataDir, { recursive: true }).sort();
      await expect(restoreBackup(corrupt, inst.target, { force: true })).rejects.toThrow(
        /damaged|do not match their checksums/,
      );
      await expect(restoreBackup(truncated, inst.target, { force: true })).rejects.toThrow(
        /truncated|ends too early|are missing/,
      );
      expect(fs.readdirSync(inst.target.dataDir, { recursive: true }).sort()).toEqual(before);
      expect(fs.readFileSync(marker, 'utf8')).toBe('kept');
    } finally {
      await inst.drop();
    }
  });
});

describe('backup and restore drill with S3 storage', { timeout: 120_000 }, () => {
  it('copies every object of the bucket and puts them back in an empty one', async () => {
    const s3 = await startS3Server('kutu-drill');
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-backups-'));
    const t = await createTestApp({ storage: s3.storage('source/') });
    const inst = await emptyInstallation(s3.storage('restored/'));
    try {
      await populateInstallation(t);
      await t.deps.jobs.stop(1000);
      const archive = path.join(work, 's3.tar.gz');
      await takeBackup(
        {
          database: t.deps.database,
          storage: t.deps.storage,
          dataDir: t.dataDir,
        },
        archive,
      );
      const photos = await storedChecksums(t.deps.storage);
      expect(Object.keys(photos).length).toBeGreaterThanOrEqual(3);
      await restoreBackup(archive, inst.target);
      expect(await storedChecksums(inst.target.storage)).toEqual(photos);
      const restored = await inst.open();
      try {
        expect(await everyRow(restored)).toEqual(await everyRow(t.deps.database));
      } finally {
        await restored.close();
      }
    } finally {
      await inst.drop();
      await t.close();
      await s3.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('a backup taken while farmers write', { timeout: 240_000 }, () => {
  it('names on its last line the accounts and analyses its archive brings back', async () => {
    const t = await createTestApp();
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-backups-'));
    const inst = await emptyInstallation();
    try {
      await t.deps.jobs.stop(1000);
      const farmer = await createUser(t, 'farmer');
      const db = t.deps.database;
      // A farmer's photos arriving one after another, from before the backup starts until it ends.
      let writing = true;
      let written = 0;
      const writer = (async () => {
        while (writing) {
          await db.execute(
            `insert into analyses (user_id, image_path, outcome, rust_class, confidence, unsure, probabilities, model_version, crop, created_at)
             values ($1, 'analyses/busy.jpg', 'diagnosis', 'common_rust', 0.9, false, '{}'::jsonb, 'v-test', 'maize', now())`,
            [farmer.id],
          );
          written += 1;
          // As requests do: PGlite answers without I/O, and a loop of its queries alone would hold the event loop.
          await new Promise((r) => setImmediate(r));
        }
      })();
      while (written < 5) await new Promise((r) => setTimeout(r, 5));
      const archive = path.join(work, 'busy.tar.gz');
      const result = await takeBackup({ database: db, storage: t.deps.storage, dataDir: t.dataDir }, archive);
      writing = false;
      await writer;
      const holdings = `select (select count(*) from users where phone <> $1)::int as accounts,
        (select count(*) from analyses)::int as analyses`;
      // The writes went on past the moment the backup counted, or this test shows nothing.
      const now = (await db.execute(holdings, [FORMER_MEMBER.phone])).rows[0]!;
      expect(Number(now.analyses)).toBeGreaterThan(result.holds.analyses);

      await restoreBackup(archive, inst.target);
      const restored = await inst.open();
      try {
        const [held] = (await restored.execute(holdings, [FORMER_MEMBER.phone])).rows;
        expect({ accounts: Number(held!.accounts), analyses: Number(held!.analyses) }).toEqual({
          accounts: result.holds.accounts,
          analyses: result.holds.analyses,
        });
      } finally {
        await restored.close();
      }
    } finally {
      await inst.drop();
      await t.close();
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
