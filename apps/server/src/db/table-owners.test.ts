import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED_EVERYWHERE, CROSS_READS_TO_REMOVE, READS_BY_DESIGN, SCHEMA_FILE_OWNER } from './table-owners.ts';

const SRC = path.resolve(import.meta.dirname, '..');
const SCHEMA = path.join(SRC, 'db/schema');
const MODULES = path.join(SRC, 'modules');

/** Every table: its exported name, its SQL name and its owning module. */
function tables() {
  const found: { exported: string; sql: string; owner: string }[] = [];
  for (const file of fs.readdirSync(SCHEMA).filter((f) => f.endsWith('.ts') && f !== 'index.ts')) {
    const feature = file.slice(0, -3);
    const text = fs.readFileSync(path.join(SCHEMA, file), 'utf8');
    for (const m of text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g))
      found.push({ exported: m[1]!, sql: m[2]!, owner: SCHEMA_FILE_OWNER[feature] ?? feature });
  }
  return found;
}

/** The tables a source file names: drizzle's imports of the schema, and SQL written by hand. */
function tablesNamedIn(text: string, all: ReturnType<typeof tables>): Set<string> {
  const named = new Set<string>();
  for (const m of text.matchAll(/import \{([^}]*)\} from '[./]*db\/schema\/index\.ts'/g)) {
    for (const part of m[1]!.split(',')) {
      const t = all.find((x) => x.exported === part.replace('type ', '').trim());
      if (t) named.add(t.sql);
    }
  }
  for (const m of text.matchAll(/\b(?:from|join|into|update)\s+(\w+)/gi)) {
    const t = all.find((x) => x.sql === m[1]);
    if (t) named.add(t.sql);
  }
  return named;
}

/**
 * Every folder whose source may name a table, with the owner it counts as: each module, and the two
 * folders beside them that hold code of no module: lib/ (owner of the list caches' counters alone) and
 * cli/ (which owns no table: a command asks the owners' services like any module).
 */
const FOLDERS = () => [
  ...fs.readdirSync(MODULES).map((m) => ({ owner: m, dir: path.join(MODULES, m) })),
  { owner: 'lib', dir: path.join(SRC, 'lib') },
  { owner: 'cli', dir: path.join(SRC, 'cli') },
];

/** module (or lib, cli) → the other modules' tables its source files (tests aside) name. */
function crossReads() {
  const all = tables();
  const reads: Record<string, string[]> = {};
  for (const { owner: module, dir } of FOLDERS()) {
    if (READS_BY_DESIGN[module]) continue;
    const named = new Set<string>();
    for (const file of fs.readdirSync(dir)) {
      if (!file.endsWith('.ts') || file.includes('.test.') || file.includes('test-support')) continue;
      for (const t of tablesNamedIn(fs.readFileSync(path.join(dir, file), 'utf8'), all)) named.add(t);
    }
    const others = [...named].filter(
      (t) => all.find((x) => x.sql === t)!.owner !== module && !(t in ALLOWED_EVERYWHERE),
    );
    if (others.length) reads[module] = others.sort();
  }
  return reads;
}

describe('tables are read and written only by the module that owns them', () => {
  it('finds no read of another module’s table beyond the listed ones, and every listed one still there', () => {
    const listed = Object.fromEntries(Object.entries(CROSS_READS_TO_REMOVE).map(([m, t]) => [m, [...t].sort()]));
    // A new read: ask the owner's service. A removed one: take it off CROSS_READS_TO_REMOVE.
    expect(crossReads()).toEqual(listed);
  });

  it('sees a table named by import or in hand-written SQL', () => {
    const all = tables();
    expect([...tablesNamedIn("import { analyses, users } from '../../db/schema/index.ts';", all)].sort()).toEqual([
      'analyses',
      'users',
    ]);
    expect([...tablesNamedIn('sql`select 1 from role_applications ra join fields f on true`', all)].sort()).toEqual([
      'fields',
      'role_applications',
    ]);
    expect(all.find((t) => t.sql === 'ussd_actions')?.owner).toBe('basic-phone');
  });

  it('reads lib/ and cli/ as well as the modules', () => {
    expect(FOLDERS().map((f) => path.relative(SRC, f.dir))).toEqual(
      expect.arrayContaining(['lib', 'cli', 'modules/auth']),
    );
  });
});
