import { eq, type SQL, sql } from 'drizzle-orm';
import type { Language } from '@kutu/contract';
import type { Db } from '../db/client.ts';
import { readVersions, users } from '../db/schema/index.ts';

/**
 * Bytes of entries kept per cache (their JSON's length), least recently used dropped first. A
 * dashboard is about 1 KiB and a history page of 10 about 10 KiB: thousands of users fit.
 */
export const READ_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The read version of a user's screens: the user's counter and the shared one (row 0), which
 * database triggers raise in the transaction of every write that can change those screens
 * (migration 0018, docs/decisions/0036), with the account's language (a screen in the reader's
 * language needs it, and it costs no second query). Primary-key lookups, prepared once.
 */
export function createReadVersions(db: Db) {
  const version = (userId: SQL) =>
    sql<number | null>`(select ${readVersions.version} from ${readVersions} where ${readVersions.userId} = ${userId})`;
  const prepared = db
    .select({ language: users.language, mine: version(sql`${users.id}`), shared: version(sql`0`) })
    .from(users)
    .where(eq(users.id, sql.placeholder('user')))
    .prepare('read_versions_of_user');
  return {
    /** A stamp that changes whenever a write committed that can change this user's screens. */
    async of(userId: number): Promise<{ stamp: string; language: Language | undefined }> {
      const [row] = await prepared.execute({ user: userId });
      return { stamp: `${Number(row?.mine ?? 0)}.${Number(row?.shared ?? 0)}`, language: row?.language };
    },
  };
}

/**
 * Per-process cache of one user's screens (a dashboard, a history page), each entry kept with the
 * read version it was computed at and served only while the database still reports that version. A
 * write in any process raises the version in its own transaction, so the next read anywhere misses:
 * no notification to lose, no time during which an old entry is served. The version is read before
 * the entry is loaded, so an entry is never newer-stamped than its rows.
 */
export function createReadCache<V>(maxBytes = READ_CACHE_MAX_BYTES) {
  const entries = new Map<string, { stamp: string; value: V; bytes: number }>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.bytes;
    entries.delete(key);
  };
  // Loads under way, shared by concurrent requests for the same entry at the same version.
  const loading = new Map<string, Promise<V>>();

  return {
    async get(key: string, stamp: string, load: () => Promise<{ value: V; bytes: number }>): Promise<V> {
      const hit = entries.get(key);
      if (hit && hit.stamp === stamp) {
        entries.delete(key);
        entries.set(key, hit);
        return hit.value;
      }
      const id = `${stamp}\n${key}`;
      const pending = loading.get(id);
      if (pending) return pending;
      const promise = load().then((entry) => {
        const current = entries.get(key);
        // A slower load of an older version must not replace a newer entry (stamps only grow).
        const older = current && newer(current.stamp, stamp);
        if (!older && entry.bytes <= maxBytes) {
          drop(key);
          while (bytes + entry.bytes > maxBytes) drop(entries.keys().next().value as string);
          entries.set(key, { stamp, value: entry.value, bytes: entry.bytes });
          bytes += entry.bytes;
        }
        return entry.value;
      });
      loading.set(id, promise);
      const forget = () => loading.delete(id);
      promise.then(forget, forget);
      return promise;
    },

    /** Entries and bytes held (tests, metrics). */
    size: () => ({ entries: entries.size, bytes }),
  };
}

/** Whether stamp `a` is later than `b` in either counter (stamps `user.shared` only grow). */
function newer(a: string, b: string): boolean {
  const [au, as] = a.split('.').map(Number);
  const [bu, bs] = b.split('.').map(Number);
  return au > bu || as > bs;
}
