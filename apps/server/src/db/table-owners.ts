/**
 * Which module owns which table (docs/CONTRIBUTING.md, "Tables and their owners"): a module owns the
 * tables of `db/schema/<module>.ts`, and only it reads or writes them in SQL; another module asks the
 * owner's service. `db/table-owners.test.ts` reads every module's files and holds the rule.
 */

/** Schema files whose owner is not the module of the same name. */
export const SCHEMA_FILE_OWNER: Record<string, string> = {
  phone: 'basic-phone',
  // The list caches' write counters (lib/read-cache.ts), no module's own.
  'read-versions': 'lib',
};

/** Reads of another module's tables allowed for good, each with why. */
export const ALLOWED_EVERYWHERE: Record<string, string> = {
  users:
    "the account (id, name, language, role, district) that every module's rows point to: joined for names and languages, never written outside auth",
};

/** Modules that read other modules' tables by design, with why. */
export const READS_BY_DESIGN: Record<string, string> = {
  privacy:
    "a person's copy and erasure walk every table of PERSONAL_DATA (modules/privacy/personal-data.ts), which a test checks against the database",
  backup:
    "a backup is the whole database (pg_dump): it counts accounts and analyses in the dump's own snapshot for the archive's last line, and a restore checks its target holds none, over a plain pg connection",
};

/**
 * Reads of other modules' tables that exist today and are to move behind the owner's service. The test
 * fails on any read not listed here, and on a listed one that is gone: the list only shrinks.
 */
export const CROSS_READS_TO_REMOVE: Record<string, string[]> = {};
