import type { Language } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { farmerProfiles, users } from '../../db/schema/index.ts';
import type { UserRow } from './auth.repo.ts';

/**
 * A phone-only farmer made for someone else's sign-up (a plant clinic, docs/decisions/0053): no email, no
 * password until the farmer sets one, not activated (nobody proved the number by a code yet). Null when
 * the username or the phone number is taken.
 */
export async function insertPhoneOnlyFarmer(
  db: Db,
  input: {
    username: string;
    phone: string;
    language: Language;
    district: string;
    farmLocation: string;
    cropTypes: string[];
    now: Date;
  },
): Promise<UserRow | null> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        email: null,
        username: input.username,
        role: 'farmer',
        phone: input.phone,
        language: input.language,
        district: input.district,
        passwordHash: null,
        createdAt: input.now,
      })
      .onConflictDoNothing()
      .returning();
    if (!user) return null;
    await tx
      .insert(farmerProfiles)
      .values({ userId: user.id, farmLocation: input.farmLocation, farmSize: 0, cropTypes: input.cropTypes });
    return user;
  });
}
