import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/support/app.ts';
import type { Database } from './client.ts';

const migration = fs.readFileSync(
  path.join(import.meta.dirname, 'migrations/0014_training_texts_in_languages.sql'),
  'utf8',
);

describe('migration 0014_training_texts_in_languages (docs/decisions/0022)', () => {
  let database: Database;
  let drop: () => Promise<void>;
  // PGlite, or PostgreSQL itself when TEST_DATABASE_URL names a server (scripts/test.ts).
  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
  });
  afterAll(() => drop());

  it("keeps a failed job's English error as text that reads back as written", async () => {
    // As the table was before 0014.
    await database.execute('alter table training_jobs alter column error set data type text');
    await database.execute(
      `insert into training_jobs (trigger, status, error) values
         ('manual', 'failed', 'There are no training images'), ('manual', 'succeeded', null)`,
    );
    await database.execute(migration);
    const { rows } = await database.execute('select error, jsonb_typeof(error) as kind from training_jobs order by id');
    expect(rows).toEqual([
      { error: 'There are no training images', kind: 'string' },
      { error: null, kind: null },
    ]);
  });
});
