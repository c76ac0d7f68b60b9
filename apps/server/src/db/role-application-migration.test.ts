import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, migrationsFolder, openDatabase } from './client.ts';

const files = fs
  .readdirSync(migrationsFolder)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const MIGRATION = files.find((f) => f.endsWith('_one_role_application.sql'))!;
const statements = (file: string) =>
  fs
    .readFileSync(path.join(migrationsFolder, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);

describe('migration one_role_application (docs/decisions/0093)', () => {
  let database: Database;
  beforeAll(async () => {
    // The schema as it was before: the migrations before it, applied by hand.
    database = await openDatabase({ pgliteDir: null });
    for (const file of files.filter((f) => f < MIGRATION)) {
      for (const statement of statements(file)) await database.execute(statement);
    }
  }, 120_000);
  afterAll(() => database.close());

  it("moves every expert's and officer's application with its status, reason, dates and decider, then drops the old columns", async () => {
    const applied = new Date('2026-03-01T08:00:00Z');
    const decided = new Date('2026-03-02T09:30:00Z');
    await database.execute(
      `insert into users (email, username, role, phone) values
         ('admin@example.com', 'admin', 'admin', '+256772000001'),
         ('a@example.com', 'approvedexpert', 'expert', '+256772000002'),
         ('r@example.com', 'refusedexpert', 'expert', '+256772000003'),
         ('p@example.com', 'pendingofficer', 'officer', '+256772000004'),
         ('w@example.com', 'withdrawnofficer', 'officer', '+256772000005')`,
    );
    await database.execute(
      `insert into expert_profiles (user_id, areas_of_expertise, vetting_status, vetting_reason, vetted_at, vetted_by, applied_at)
       select u.id, 'Maize rust', s.status, s.reason, s.decided, (select id from users where username = 'admin'), $1
       from users u join (values ('approvedexpert', 'approved', null, $2::timestamptz),
                                 ('refusedexpert', 'refused', 'No certificate', $2::timestamptz)) s(name, status, reason, decided)
         on s.name = u.username`,
      [applied, decided],
    );
    await database.execute(
      `insert into officer_profiles (user_id, office, districts, vetting_status, vetting_reason, vetted_at, applied_at)
       select u.id, 'DAO Kumi', array['UG-208'], s.status, s.reason, s.decided, $1
       from users u join (values ('pendingofficer', 'pending', null, null::timestamptz),
                                 ('withdrawnofficer', 'refused', 'Left the office', $2::timestamptz)) s(name, status, reason, decided)
         on s.name = u.username`,
      [applied, decided],
    );

    for (const statement of statements(MIGRATION)) await database.execute(statement);

    const { rows } = await database.execute(
      `select u.username, a.role, a.status, a.reason, a.applied_at, a.decided_at, d.username as decided_by
       from role_applications a join users u on u.id = a.user_id left join users d on d.id = a.decided_by
       order by u.username`,
    );
    expect(rows).toEqual([
      {
        username: 'approvedexpert',
        role: 'expert',
        status: 'approved',
        reason: null,
        applied_at: applied,
        decided_at: decided,
        decided_by: 'admin',
      },
      {
        username: 'pendingofficer',
        role: 'officer',
        status: 'pending',
        reason: null,
        applied_at: applied,
        decided_at: null,
        decided_by: null,
      },
      {
        username: 'refusedexpert',
        role: 'expert',
        status: 'refused',
        reason: 'No certificate',
        applied_at: applied,
        decided_at: decided,
        decided_by: 'admin',
      },
      {
        username: 'withdrawnofficer',
        role: 'officer',
        status: 'refused',
        reason: 'Left the office',
        applied_at: applied,
        decided_at: decided,
        decided_by: null,
      },
    ]);
    // The role's own facts stay; the vetting columns are gone.
    const { rows: columns } = await database.execute(
      `select table_name, column_name from information_schema.columns
       where table_name in ('expert_profiles', 'officer_profiles') and column_name similar to '(vett|applied)%'`,
    );
    expect(columns).toEqual([]);
    const { rows: districts } = await database.execute(`select office, districts from officer_profiles order by 1`);
    expect(districts).toEqual([
      { office: 'DAO Kumi', districts: ['UG-208'] },
      { office: 'DAO Kumi', districts: ['UG-208'] },
    ]);
  });
});
