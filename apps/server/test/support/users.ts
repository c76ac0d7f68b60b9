import { randomUUID } from 'node:crypto';
import { type Language, needsApproval, type Role, type VettingStatus } from '@kutu/contract';
import {
  expertProfiles,
  farmerProfiles,
  officerProfiles,
  refreshTokens,
  roleApplications,
  users,
} from '../../src/db/schema/index.ts';
import { createAccessTokens, randomToken } from '../../src/lib/tokens.ts';
import { hashSecret } from '../../src/modules/auth/passwords.ts';
import { createTestApp, type TestContext } from './app.ts';

let counter = 0;
const PASSWORD = 'Str0ng!Passw0rd';
// One argon2id hash for every test user: hashing costs about 0.1 s, and tests create hundreds of users.
let passwordHash: Promise<string> | null = null;

/** Authorization headers for this access token. */
export const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

export interface TestUser {
  id: number;
  username: string;
  email: string;
  role: Role;
  phone: string;
  password: string;
  /** Headers with a valid bearer access token. */
  headers: { authorization: string };
}

/**
 * An active, verified user inserted straight into the database, with an access token: for testing
 * features other than sign-up (the auth tests drive the real flow).
 */
export async function createUser(
  t: TestContext,
  role: Role,
  /**
   * `vetting`: an expert's or an extension officer's state (docs/decisions/0027); approved unless a test
   * says otherwise. `districts`: an officer's (the first is also the account's `district`).
   */
  opts: {
    username?: string;
    phone?: string;
    language?: Language;
    vetting?: VettingStatus;
    district?: string;
    districts?: string[];
  } = {},
): Promise<TestUser> {
  counter += 1;
  const username = opts.username ?? `${role}${counter}_${Math.random().toString(36).slice(2, 7)}`;
  const email = `${username}@example.com`.toLowerCase();
  passwordHash ??= hashSecret(PASSWORD);
  const now = new Date();
  const [user] = await t.deps.database.db
    .insert(users)
    .values({
      email,
      username,
      role,
      // Unique per account (users_phone_unique): counter plus process id, so files running side by side differ too.
      phone: opts.phone ?? `+2567${String(process.pid % 1000).padStart(3, '0')}${String(counter).padStart(5, '0')}`,
      passwordHash: await passwordHash,
      emailVerifiedAt: now,
      phoneVerifiedAt: now,
      activatedAt: now,
      ...(opts.language && { language: opts.language }),
      district: opts.district ?? opts.districts?.[0] ?? null,
    })
    .returning();
  if (role === 'farmer') {
    await t.deps.database.db
      .insert(farmerProfiles)
      .values({ userId: user.id, farmLocation: 'Mbale', farmSize: 2.5, cropTypes: ['MAIZE'] });
  } else if (role === 'expert') {
    await t.deps.database.db.insert(expertProfiles).values({
      userId: user.id,
      areasOfExpertise: 'Maize rust',
      certifications: 'BSc Agriculture',
      bio: 'Plant pathologist',
      experienceYears: 8,
    });
  } else if (role === 'officer') {
    await t.deps.database.db.insert(officerProfiles).values({
      userId: user.id,
      office: 'District Agricultural Office',
      districts: opts.districts ?? ['UG-208'],
    });
  }
  if (needsApproval(role)) {
    const refusal = role === 'expert' ? 'No certificate was sent' : 'Not an officer of this district';
    await t.deps.database.db.insert(roleApplications).values({
      userId: user.id,
      role,
      status: opts.vetting ?? 'approved',
      ...(opts.vetting === 'refused' && { reason: refusal, decidedAt: now }),
    });
  }
  // Access tokens belong to a sign-in session (a refresh-token family) and die with it.
  const sessionId = randomUUID();
  await t.deps.database.db.insert(refreshTokens).values({
    userId: user.id,
    familyId: sessionId,
    tokenHash: randomToken(),
    expiresAt: new Date(now.getTime() + 24 * 3600 * 1000),
  });
  const tokens = createAccessTokens(t.deps.config.jwt.accessSecret, t.deps.config.jwt.accessTtlSeconds);
  const access = await tokens.sign({ userId: user.id, role, sessionId });
  return {
    id: user.id,
    username,
    email,
    role,
    phone: user.phone,
    password: PASSWORD,
    headers: { authorization: `Bearer ${access}` },
  };
}

/** A test app with one farmer and one expert: the setup that feature tests share. */
export async function appWithFarmerAndExpert(): Promise<{ t: TestContext; farmer: TestUser; expert: TestUser }> {
  const t = await createTestApp();
  return { t, farmer: await createUser(t, 'farmer'), expert: await createUser(t, 'expert') };
}
