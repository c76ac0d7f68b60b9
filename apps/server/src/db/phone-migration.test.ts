import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './client.ts';

const migration = fs.readFileSync(path.join(import.meta.dirname, 'migrations/0013_phone_only_farmers.sql'), 'utf8');
const duplicateGuard = migration.split('--> statement-breakpoint')[0];

describe('migration 0013_phone_only_farmers (docs/decisions/0024)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: null });
    await database.migrate();
  });
  afterAll(() => database.close());

  const insertUser = (name: string, phone: string) =>
    database.execute(`insert into users (email, username, role, phone) values ($1, $2, 'farmer', $3)`, [
      `${name}@example.com`,
      name,
      phone,
    ]);

  it('passes while every phone number is used once', async () => {
    await insertUser('first', '+256772000001');
    await insertUser('second', '+256772000002');
    await expect(database.execute(duplicateGuard)).resolves.toBeDefined();
  });

  it('stops with a message that says what to do when accounts share a number', async () => {
    // As the table was before 0013: no unique phone index.
    await database.execute('drop index users_phone_unique');
    await insertUser('third', '+256772000001');
    await expect(database.execute(duplicateGuard)).rejects.toThrow(
      /1 phone number\(s\) are used by more than one account.*SELECT phone, array_agg/,
    );
  });
});
