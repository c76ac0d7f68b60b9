import type { Language } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { farmerProfiles, users } from '../../db/schema/index.ts';
import { randomToken } from '../../lib/tokens.ts';
import { uniqueViolation, type UserRow } from './auth.repo.ts';

/** What a farmer gives on a basic phone (USSD): no email, no password. */
export interface PhoneFarmerInput {
  phone: string;
  name: string;
  language: Language;
  district: string;
  /** The district's name, kept as the farm's location. */
  districtName: string;
  crops: string[];
}

/** A username from the farmer's name and the number's last digits ("Nakato-4521"); contract-safe. */
export function usernameFor(name: string, phone: string, extra = ''): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24) || 'farmer';
  return `${base}-${phone.slice(-4)}${extra}`;
}

/**
 * The phone-only farmer account of decision 0024, made from a USSD session (docs/decisions/0051), where
 * the gateway's session proves the number (`proven`: active at once), or at a plant clinic (0053: not
 * active until the farmer proves it), with no password until the farmer sets one (the web's "forgot password by SMS" sets it). A clash on the generated username tries
 * again with a suffix; a clash on the phone number means the number has an account already (null).
 */
export async function createPhoneFarmer(
  db: Db,
  input: PhoneFarmerInput,
  now: Date,
  opts: { proven: boolean },
): Promise<UserRow | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const extra =
      attempt === 0
        ? ''
        : `-${randomToken()
            .replace(/[^a-z0-9]/gi, '')
            .slice(0, 4)}`;
    try {
      return await db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            email: null,
            username: usernameFor(input.name, input.phone, extra),
            role: 'farmer',
            phone: input.phone,
            language: input.language,
            district: input.district,
            passwordHash: null,
            phoneVerifiedAt: opts.proven ? now : null,
            activatedAt: opts.proven ? now : null,
            createdAt: now,
          })
          .returning();
        await tx.insert(farmerProfiles).values({
          userId: user.id,
          farmLocation: input.districtName,
          farmSize: 0,
          cropTypes: input.crops,
          name: input.name,
        });
        return user;
      });
    } catch (err) {
      const index = uniqueViolation(err);
      if (index === 'users_phone_unique') return null;
      if (index !== 'users_username_unique') throw err;
    }
  }
  return null;
}
