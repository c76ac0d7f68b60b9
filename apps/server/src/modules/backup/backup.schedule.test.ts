import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupApi, type BackupStatus } from '@kutu/contract';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser, type TestUser } from '../../../test/support/users.ts';
import { eventually } from '../../../test/support/processes.ts';
import { verifyArchive } from './archive.ts';
import { BACKUP_QUEUE } from './backup.jobs.ts';
import { createBackupSchedule } from './backup.schedule.ts';
import { createBackupRepo } from './backup.repo.ts';

const DAY = 24 * 3600_000;

describe('scheduled backups', { timeout: 90_000 }, () => {
  let t: TestContext;
  let admin: TestUser;
  let farmer: TestUser;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-scheduled-'));
    t = await createTestApp({ env: { BACKUP_DIR: dir, BACKUP_KEEP: '2', BACKUP_EVERY_HOURS: '24' }, workJobs: true });
    admin = await createUser(t, 'admin');
    farmer = await createUser(t, 'farmer');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const status = async (who: TestUser | null = admin) =>
    t.app.inject({ method: 'GET', url: backupApi.status, headers: who?.headers ?? {} });
  const schedule = () =>
    createBackupSchedule({
      db: t.deps.database.db,
      database: t.deps.database,
      storage: t.deps.storage,
      config: t.deps.config,
      clock: t.clock,
    });

  it('shows the backups to administrators only', async () => {
    expect((await status(null)).statusCode).toBe(401);
    expect((await status(farmer)).statusCode).toBe(403);
    const res = await status();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ every_hours: 24, keep: 2 });
  });

  it('the worker takes a due backup, verifies it and records it for the admin screen', async () => {
    await t.deps.jobs.send(BACKUP_QUEUE, {});
    const shown = await eventually(async () => (await status()).json<BackupStatus>().last_verified, 'a backup');
    const file = path.join(dir, shown.file);
    expect(shown.verified).toBe(true);
    expect(shown.size_bytes).toBe(fs.statSync(file).size);
    expect((await verifyArchive(file)).database).toBe(t.deps.database.kind);
    expect(shown.error).toBeNull();
  });

  it('is not taken again before BACKUP_EVERY_HOURS; past it, it is, and only the last BACKUP_KEEP stay', async () => {
    const s = schedule();
    expect(await s.runIfDue()).toBeNull();
    t.clock.advance(DAY);
    expect((await s.runIfDue())?.verified).toBe(true);
    t.clock.advance(DAY);
    expect((await s.runIfDue())?.verified).toBe(true);
    const { recent, last_verified } = (await status()).json<BackupStatus>();
    expect(recent).toHaveLength(3);
    expect(recent.map((r) => r.removed)).toEqual([false, false, true]);
    expect(last_verified?.id).toBe(recent[0]!.id);
    expect(fs.readdirSync(dir).sort()).toEqual([recent[1]!.file, recent[0]!.file].sort());
  });

  it('records a failed backup with its reason and keeps no half archive', async () => {
    const blocked = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocked, '');
    const s = createBackupSchedule({
      db: t.deps.database.db,
      database: t.deps.database,
      storage: t.deps.storage,
      config: { ...t.deps.config, backup: { ...t.deps.config.backup, dir: path.join(blocked, 'inside') } },
      clock: t.clock,
    });
    const row = await s.takeScheduled();
    expect(row).toMatchObject({ verified: false, error: expect.stringMatching(/ENOTDIR|EEXIST|not a directory/) });
    const { recent, last_verified } = (await status()).json<BackupStatus>();
    expect(recent[0]).toMatchObject({ verified: false, size_bytes: null });
    expect(last_verified?.verified).toBe(true);
  });

  it('after a restore onto another DATA_DIR, shows no backup that is not in its BACKUP_DIR and takes one at the next check', async () => {
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-restored-backups-'));
    try {
      const s = createBackupSchedule({
        db: t.deps.database.db,
        database: t.deps.database,
        storage: t.deps.storage,
        config: { ...t.deps.config, backup: { ...t.deps.config.backup, dir: elsewhere } },
        clock: t.clock,
      });
      const before = await s.status();
      expect(before.last_verified).toBeNull();
      expect(before.recent.filter((r) => r.verified && !r.removed)).toEqual([]);
      const taken = await s.runIfDue();
      expect(taken).toMatchObject({ verified: true });
      expect(path.dirname(taken!.file)).toBe(elsewhere);
      expect((await s.status()).last_verified?.id).toBe(taken!.id);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('leaves a due backup to the worker already taking one, until that one is past its time limit', async () => {
    t.clock.advance(DAY);
    await createBackupRepo(t.deps.database.db).start(path.join(dir, 'in-progress.tar.gz'), t.clock.now());
    const s = schedule();
    expect(await s.runIfDue()).toBeNull();
    t.clock.advance(7 * 3600_000);
    expect((await s.runIfDue())?.verified).toBe(true);
  });
});
