import os from 'node:os';
import argon2 from 'argon2';
import { createDecodeLimiter } from '../../lib/decode-limiter.ts';

/**
 * argon2id at OWASP's minimum cost (19 MiB, 2 passes, 1 lane), for passwords and one-time codes alike;
 * measured in docs/decisions/0008 (`node bench/login.ts`). The argon2 package hashes on libuv's thread
 * pool, so a sign-in does not block the event loop. Hashes made with other parameters still verify and
 * are rehashed at the next sign-in.
 */
export const hashOptions = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes running at once. argon2 runs on the thread pool, but each hash keeps a core busy: with every
 * core hashing, the event loop (and PGlite, which runs on it) waits for CPU. One core stays free.
 */
export const HASH_SLOTS = Math.max(1, os.availableParallelism() - 1);
// The image limiter's queue, without its per-user share or queue cap (all hashes count as one caller).
const hashQueue = createDecodeLimiter({
  concurrency: HASH_SLOTS,
  maxQueued: Number.POSITIVE_INFINITY,
  perUser: Number.POSITIVE_INFINITY,
});
const hashing = { run: <T>(task: () => Promise<T>) => hashQueue.run(0, task) };

export function hashSecret(secret: string): Promise<string> {
  return hashing.run(() => argon2.hash(secret, hashOptions));
}

export async function verifySecret(hash: string, secret: string): Promise<boolean> {
  try {
    return await hashing.run(() => argon2.verify(hash, secret));
  } catch {
    return false;
  }
}

/** Whether a stored hash was made with other parameters than today's. */
export function needsRehash(hash: string): boolean {
  try {
    const { memoryCost, timeCost, parallelism } = hashOptions;
    return !hash.startsWith('$argon2id$') || argon2.needsRehash(hash, { memoryCost, timeCost, parallelism });
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** For an unknown account: spends the time of a real check, so timing does not reveal which emails exist. */
export async function verifyAgainstNothing(secret: string): Promise<false> {
  dummyHash ??= hashSecret('kutu-no-such-account');
  await verifySecret(await dummyHash, secret);
  return false;
}
