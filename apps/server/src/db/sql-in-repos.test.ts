import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = path.resolve(import.meta.dirname, '../modules');

/** SQL as a file writes it: a tagged template, a statement run by hand, or drizzle's query builder on a db. */
const WRITES_SQL = /\bsql`|\.execute\(|\b(?:db|tx|database)\.(?:select|insert|update|delete)\(/;

describe('routes are thin: SQL lives in repositories, never in a routes file', () => {
  it('finds no SQL in any module’s *.routes.ts', () => {
    const found: string[] = [];
    for (const module of fs.readdirSync(MODULES))
      for (const file of fs.readdirSync(path.join(MODULES, module)).filter((f) => f.endsWith('.routes.ts')))
        if (WRITES_SQL.test(fs.readFileSync(path.join(MODULES, module, file), 'utf8'))) found.push(`${module}/${file}`);
    expect(found).toEqual([]);
  });

  it('sees SQL written the ways a file writes it', () => {
    for (const text of ['sql`select 1`', 'await deps.database.execute(q.sql, q.params)', 'db.select().from(users)'])
      expect(WRITES_SQL.test(text), text).toBe(true);
    expect(WRITES_SQL.test("app.get('/x', async () => service.list())")).toBe(false);
  });
});
