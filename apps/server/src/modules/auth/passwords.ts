import argon2 from 'argon2';

/** argon2id at OWASP's minimum cost (19 MiB, 2 passes): for passwords and one-time codes alike. */
const options = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashSecret(secret: string): Promise<string> {
  return argon2.hash(secret, options);
}

export async function verifySecret(hash: string, secret: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, secret);
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
