import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseFreeServerTests, embeddedDatabaseServerTests, pgliteServerTests } from '../vitest.config.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Where a test gets a database (PGlite, or PostgreSQL on TEST_DATABASE_URL): reaching one runs on both passes. */
const DATABASE = ['apps/server/test/support/app.ts', 'apps/server/src/db/client.ts'];

/** The repository's own files a file imports at run time (type-only imports aside), followed through. */
function runtimeImports(file: string, seen = new Set<string>()): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  for (const m of text.matchAll(/^\s*(import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms)) {
    const target = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), m[2]));
    if (seen.has(target) || !/\.tsx?$/.test(target) || !fs.existsSync(path.join(ROOT, target))) continue;
    seen.add(target);
    runtimeImports(target, seen);
  }
  return seen;
}

describe('server tests left out of the PostgreSQL pass', () => {
  it('are files that exist and reach neither the test app nor the database client', () => {
    for (const file of databaseFreeServerTests) {
      expect(fs.existsSync(path.join(ROOT, file)), file).toBe(true);
      const reached = [...runtimeImports(file)].filter((f) => DATABASE.includes(f));
      expect(reached, file).toEqual([]);
      expect(fs.readFileSync(path.join(ROOT, file), 'utf8'), file).not.toMatch(/DATABASE_URL|PGlite|pglite/);
    }
  });

  it('would catch a file that builds a test app', () => {
    const reached = runtimeImports('apps/server/src/modules/auth/signup.test.ts');
    expect([...reached].some((f) => DATABASE.includes(f))).toBe(true);
  });

  it('include files whose only database is an embedded PGlite of their own, never TEST_DATABASE_URL', () => {
    for (const file of embeddedDatabaseServerTests) {
      expect(fs.existsSync(path.join(ROOT, file)), file).toBe(true);
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/TEST_DATABASE_URL|openTestDatabase|createTestApp/);
      const opens = [...text.matchAll(/openDatabase\((.*)\)/g)].map((m) => m[1]);
      expect(opens.length, file).toBeGreaterThan(0);
      for (const args of opens) expect(args, file).toMatch(/^\{ pgliteDir: /);
    }
  });

  it('would catch a file that takes its database from TEST_DATABASE_URL', () => {
    const text = fs.readFileSync(path.join(ROOT, 'apps/server/src/db/training-texts-migration.test.ts'), 'utf8');
    expect(text).toMatch(/TEST_DATABASE_URL|openTestDatabase|createTestApp/);
  });
});

describe('the server files npm test runs on PGlite (pgliteServerTests)', () => {
  it('are the database-free and embedded ones and every file that names PGlite, and no other', () => {
    expect(pgliteServerTests).toEqual(
      expect.arrayContaining([...databaseFreeServerTests, ...embeddedDatabaseServerTests]),
    );
    for (const file of [
      'apps/server/src/db/driver-parity.test.ts',
      'apps/server/src/modules/backup/backup.test.ts',
      'apps/server/test/security/file-modes.test.ts',
    ])
      expect(pgliteServerTests, file).toContain(file);
    for (const file of pgliteServerTests) {
      const listed = databaseFreeServerTests.includes(file) || embeddedDatabaseServerTests.includes(file);
      expect(listed || /pglite/i.test(fs.readFileSync(path.join(ROOT, file), 'utf8')), file).toBe(true);
    }
    expect(pgliteServerTests).not.toContain('apps/server/src/modules/auth/signup.test.ts');
    expect(pgliteServerTests.some((file) => file.startsWith('apps/server/test/cluster/'))).toBe(false);
  });
});
