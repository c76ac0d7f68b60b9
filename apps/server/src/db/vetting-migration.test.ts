import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder, openDatabase } from './client.ts';

const files = fs
  .readdirSync(migrationsFolder)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const statements = (file: string) =>
  fs
    .readFileSync(path.join(migrationsFolder, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);

describe('migration 0015_expert_vetting (docs/decisions/0027)', () => {
  let database: Database;
  beforeAll(async () => {
    // The schema as it was before 0015: the migrations before it, applied by hand.
    database = await openDatabase({ pgliteDir: null });
    for (const file of files.filter((f) => f < '0015')) {
      for (const statement of statements(file)) await database.execute(statement);
    }
  }, 120_000);
  afterAll(() => database.close());

  it('keeps the experts of before approved, and makes new ones wait', async () => {
    const signedUp = new Date('2026-03-01T08:00:00Z');
    await database.execute(
      `insert into users (email, username, role, phone, created_at) values
         ('old@example.com', 'oldexpert', 'expert', '+256772000001', $1),
         ('farm@example.com', 'oldfarmer', 'farmer', '+256772000002', $1)`,
      [signedUp],
    );
    await database.execute(
      `insert into expert_profiles (user_id, areas_of_expertise) select id, 'Maize rust' from users where username = 'oldexpert'`,
    );

    for (const statement of statements(files.find((f) => f.startsWith('0015'))!)) await database.execute(statement);

    const { rows } = await database.execute(
      `select vetting_status, vetting_reason, vetted_at is not null as decided, applied_at from expert_profiles`,
    );
    expect(rows).toEqual([{ vetting_status: 'approved', vetting_reason: null, decided: true, applied_at: signedUp }]);
    await database.execute(
      `insert into users (email, username, role, phone) values ('new@example.com', 'newexpert', 'expert', '+256772000003')`,
    );
    await database.execute(
      `insert into expert_profiles (user_id, areas_of_expertise) select id, 'Beans' from users where username = 'newexpert'`,
    );
    const fresh = await database.execute(
      `select p.vetting_status from expert_profiles p join users u on u.id = p.user_id where u.username = 'newexpert'`,
    );
    expect(fresh.rows).toEqual([{ vetting_status: 'pending' }]);
    await expect(database.execute(`update users set role = 'superuser' where username = 'oldfarmer'`)).rejects.toThrow(
      /users_role_check/,
    );
  });
});
