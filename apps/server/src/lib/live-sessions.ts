import type { SessionClaims } from './tokens.ts';

/** How long this process trusts "the session is live" before asking the database again. */
export const LIVE_SESSION_TTL_MS = 5_000;
const MAX_CACHED = 10_000;

/** What ended: one sign-in session (logout, refresh reuse), or every session of a user (password). */
export type SessionEnd = { sessionId: string } | { userId: number };

/**
 * Which sign-in sessions are live, with the answer cached in this process for a few seconds, so an
 * authenticated request does not cost a database query each time (docs/decisions/0015). Whoever ends
 * sessions calls `ended` after the database says so: the cache forgets them at once and listeners
 * (open notification streams) close. Another process learns of it at the latest after the TTL.
 */
export function createLiveSessions(
  check: (claims: SessionClaims) => Promise<boolean>,
  ttlMs = LIVE_SESSION_TTL_MS,
  now: () => number = Date.now,
) {
  const live = new Map<string, { userId: number; role: SessionClaims['role']; until: number }>();
  const listeners = new Set<(end: SessionEnd) => void>();
  // Bumped by every `ended`: a check that started before it may have read the old state, so its
  // "live" is not cached.
  let generation = 0;

  return {
    async isLive(claims: SessionClaims): Promise<boolean> {
      const hit = live.get(claims.sessionId);
      if (hit && hit.userId === claims.userId && hit.role === claims.role && hit.until > now()) return true;
      const started = generation;
      const ok = await check(claims);
      if (ok && started === generation) {
        live.delete(claims.sessionId);
        if (live.size >= MAX_CACHED) live.delete(live.keys().next().value as string);
        live.set(claims.sessionId, { userId: claims.userId, role: claims.role, until: now() + ttlMs });
      } else if (!ok) {
        live.delete(claims.sessionId);
      }
      return ok;
    },

    ended(end: SessionEnd) {
      generation += 1;
      if ('sessionId' in end) live.delete(end.sessionId);
      else for (const [id, entry] of live) if (entry.userId === end.userId) live.delete(id);
      for (const listener of listeners) listener(end);
    },

    /** Hears every `ended` of this process; returns the unsubscribe function. */
    onEnded(listener: (end: SessionEnd) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type LiveSessions = ReturnType<typeof createLiveSessions>;
