import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackTar } from 'modern-tar';
import { privacyApi } from '@kutu/contract';
import { createTestApp, type TestContext } from '../../../test/support/app.ts';
import { createUser } from '../../../test/support/users.ts';
import { EXPORT_FILES, PERSONAL_DATA } from './personal-data.ts';

const RECIPE = 'add it to PERSONAL_DATA in apps/server/src/modules/privacy/personal-data.ts (docs/privacy.md)';

/** The list of a person's tables against the database itself: a new table cannot be missed silently. */
describe('the list of the tables that hold a person', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Every column, per table, of the app's schema (the job queue's own schema aside). */
  async function catalogue(): Promise<Map<string, Set<string>>> {
    const { rows } = await t.deps.database.execute(
      `select c.table_name as t, c.column_name as c from information_schema.columns c
         join information_schema.tables x on x.table_schema = c.table_schema and x.table_name = c.table_name
        where c.table_schema = 'public' and x.table_type = 'BASE TABLE'`,
    );
    const tables = new Map<string, Set<string>>();
    for (const r of rows as { t: string; c: string }[]) tables.set(r.t, (tables.get(r.t) ?? new Set()).add(r.c));
    return tables;
  }

  /** The columns that reference an account, or hold a user id or a phone number, and are not on the list. */
  async function unlisted(): Promise<string[]> {
    const { rows: foreign } = await t.deps.database.execute(
      `select cl.relname as t, a.attname as c
         from pg_constraint k
         join pg_class cl on cl.oid = k.conrelid
         join pg_namespace n on n.oid = cl.relnamespace
         join unnest(k.conkey) as col(num) on true
         join pg_attribute a on a.attrelid = k.conrelid and a.attnum = col.num
        where k.contype = 'f' and k.confrelid = 'public.users'::regclass and n.nspname = 'public'`,
    );
    const found = new Set((foreign as { t: string; c: string }[]).map((r) => `${r.t}.${r.c}`));
    for (const [table, columns] of await catalogue()) {
      for (const column of columns) if (column === 'user_id' || column === 'phone') found.add(`${table}.${column}`);
    }
    expect(found.size).toBeGreaterThan(30);
    const listed = PERSONAL_DATA as Record<string, { columns: Record<string, unknown> }>;
    return [...found].filter((tc) => {
      const [table, column] = tc.split('.') as [string, string];
      return !(column in (listed[table]?.columns ?? {}));
    });
  }

  it('names every column that references an account, or holds a user id or a phone number', async () => {
    expect(await unlisted(), `These columns name a person: ${RECIPE}`).toEqual([]);
  });

  it('finds a new table that references an account, or holds a user id or a phone number, and is not listed', async () => {
    await t.deps.database.execute(
      `create table soil_tests (id serial primary key, tested_by integer references users(id) on delete set null,
         user_id integer, phone text)`,
    );
    try {
      expect((await unlisted()).sort()).toEqual(['soil_tests.phone', 'soil_tests.tested_by', 'soil_tests.user_id']);
    } finally {
      await t.deps.database.execute('drop table soil_tests');
    }
  });

  it('lists only tables and columns that exist', async () => {
    const tables = await catalogue();
    const stale = Object.entries(PERSONAL_DATA).flatMap(([table, entry]) => {
      const columns = tables.get(table);
      if (!columns) return [table];
      const through = (entry as { through?: string }).through;
      return [
        ...Object.keys(entry.columns)
          .filter((c) => !columns.has(c))
          .map((c) => `${table}.${c}`),
        ...(through && !(through in PERSONAL_DATA) ? [`${table} through ${through}`] : []),
      ];
    });
    expect(stale).toEqual([]);
  });

  it('finds in the archive every file and key the list names, and the README names every file', async () => {
    const farmer = await createUser(t, 'farmer');
    const res = await t.app.inject({ method: 'GET', url: privacyApi.export, headers: farmer.headers });
    expect(res.statusCode).toBe(200);
    const entries = await unpackTar(gunzipSync(res.rawPayload));
    const files = new Map(entries.map((e) => [e.header.name.replace('kutu-my-data/', ''), Buffer.from(e.data ?? [])]));
    const readme = files.get('README.txt')?.toString() ?? '';
    for (const file of EXPORT_FILES) {
      expect(files.has(file), file).toBe(true);
      expect(readme).toContain(file);
    }
    const absent = Object.entries(PERSONAL_DATA).flatMap(([table, entry]) => {
      const exported = entry.exported as { file?: string; key?: string };
      if (!exported.file) return [];
      const body = JSON.parse(files.get(exported.file)?.toString() ?? 'null');
      const ok = exported.key === undefined ? body !== null : body !== null && exported.key in body;
      return ok ? [] : [`${table} → ${exported.file}${exported.key ? `: ${exported.key}` : ''}`];
    });
    expect(absent).toEqual([]);
  });
});
