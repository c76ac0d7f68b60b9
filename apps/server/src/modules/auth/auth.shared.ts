import { randomUUID } from 'node:crypto';
import type { ApprovalRole, UserRecord, VettingStatus } from '@kutu/contract';
import type { ModuleDeps } from '../../deps.ts';
import type { Tx } from '../../db/client.ts';
import { contractMessage } from '../../i18n/i18n.ts';
import { badRequest, conflict, tooMany, unauthenticated } from '../../lib/errors.ts';
import { hashToken, randomToken } from '../../lib/tokens.ts';
import { type Account, type CodePurpose, createAuthRepo, type UserRow } from './auth.repo.ts';
import type { CodeService } from './codes.service.ts';
import { type SmsMessage, smsMessage } from '../../i18n/sms-texts.ts';
import { waitBeforeNextTry, waitMessage } from './backoff.ts';
import { normaliseEmail } from './email.ts';

export interface AuthLog {
  error(obj: object, msg: string): void;
}

/** The address normalised, or the 400 with the contract's sentence for what is wrong with it. */
export function emailOrThrow(raw: string): string {
  const normalised = normaliseEmail(raw);
  if ('problem' in normalised) {
    throw badRequest(contractMessage(normalised.problem), { email: contractMessage(normalised.problem) });
  }
  return normalised.email;
}

/** The 409 for a taken email, username or phone (by the unique index's name), as at sign-up. */
export function clash(index: string) {
  if (index.includes('username')) {
    return conflict('errors.auth.usernameTaken', { username: 'errors.auth.alreadyTaken' });
  }
  if (index.includes('phone')) {
    return conflict('errors.auth.phoneTaken', { phone_number: 'errors.auth.alreadyRegistered' });
  }
  return conflict('errors.auth.emailTaken', { email: 'errors.auth.alreadyRegistered' });
}

/**
 * The applications for a role that needs approval, as auth keeps them: the vetting module's records
 * (`createApplicationRecords`), handed in by services.ts. Vetting reads auth (it signs a withdrawn person
 * out, it shows an expert's facts), so auth knows vetting only as this port.
 */
export interface ApplicationRecords {
  /** A new applicant's pending application, in the sign-up's transaction; an officer's with their office and districts. */
  open(
    userId: number,
    role: ApprovalRole,
    now: Date,
    runner: Tx,
    officer?: { office: string; districts: string[] },
  ): Promise<void>;
  /** The user's application in `role`; undefined when none. */
  of(
    userId: number,
    role: ApprovalRole,
  ): Promise<{ status: VettingStatus; reason: string | null; decidedAt: Date | null } | undefined>;
}

/**
 * What the auth services share (docs/decisions/0042): the repo, token hashing, codes, SMS, issuing a
 * session, the back-off check and the account as the contract shows it. Built once in services.ts and handed to each auth service.
 */
export function createAuthShared(deps: ModuleDeps, log: AuthLog, codes: CodeService, applications: ApplicationRecords) {
  const { config, clock, tokens } = deps;
  /** Tells the other processes' session caches and streams (docs/decisions/0021); the database already says so. */
  const revoked = (userId: number, sessionId?: string) =>
    deps.coordinator.publish({ type: 'session-revoked', userId, sessionId }).catch(() => {});
  const repo = createAuthRepo(deps.db);
  const secret = config.jwt.refreshSecret;
  const hash = (token: string) => hashToken(token, secret);
  const verifyLink = (token: string, code: string) =>
    `${config.publicUrl}/auth/verify-email?token=${encodeURIComponent(token)}&verificationToken=${code}`;
  const activationLink = (token: string) => `${config.publicUrl}/auth/activation?token=${encodeURIComponent(token)}`;

  const freshCode = codes.fresh;
  /** Checks a code for the user, counting the try before judging it (codes.service.ts). Returns the stored code's id. */
  const checkCode = (userId: number, purpose: CodePurpose, code: string, field: string) =>
    codes.check(userId, purpose, code, field);

  async function sendActivationSms(user: Pick<UserRow, 'id'>, code: string) {
    await sendSms(user, smsMessage('sms.activation', { code }));
  }

  /**
   * A code's SMS goes through the outbox (docs/decisions/0108): the code is stored before anything is
   * posted, so the request never waits on the gateway, a slow gateway's answer cannot undo a code it
   * sent, and the delivery worker retries a gateway that is down without sending a new code each time.
   */
  async function sendSms(user: Pick<UserRow, 'id'>, text: SmsMessage) {
    await deps.delivery.tell({ to: user.id, key: `code:${randomUUID()}`, kind: 'requested', sms: text });
  }

  async function issueSession(user: UserRow) {
    const now = clock.now();
    const refresh = randomToken();
    const sessionId = randomUUID();
    await repo.insertRefreshToken({
      userId: user.id,
      familyId: sessionId,
      tokenHash: hash(refresh),
      expiresAt: new Date(now.getTime() + config.jwt.refreshTtlDays * 24 * 3600 * 1000),
      now,
    });
    return { access: await tokens.sign({ userId: user.id, role: user.role, sessionId }, now), refresh };
  }

  /** Refuses (429, how long to wait) while the back-off after failed password checks under `key` runs. */
  async function assertNoBackOff(key: string) {
    const row = await repo.peekThrottle(key);
    const wait = waitBeforeNextTry(row && { count: row.count, lastAt: row.windowStart }, clock.now());
    if (wait > 0) throw tooMany(waitMessage(wait));
  }

  async function userRecord(userId: number): Promise<UserRecord> {
    const account = await repo.loadAccount(userId);
    if (!account) throw unauthenticated('errors.session.invalid');
    // An expert's application (an officer reads theirs from the extension module's `me`).
    return toUserRecord(account, account.expert ? await applications.of(userId, 'expert') : undefined);
  }

  return {
    deps,
    log,
    repo,
    applications,
    hash,
    revoked,
    verifyLink,
    activationLink,
    freshCode,
    checkCode,
    sendSms,
    sendActivationSms,
    issueSession,
    assertNoBackOff,
    userRecord,
  };
}
export type AuthShared = ReturnType<typeof createAuthShared>;

/** The account type in English for API clients; the web app shows the role in the user's language. */
const ACCOUNT_TYPES: Record<UserRow['role'], string> = {
  farmer: 'Farmer',
  expert: 'Expert',
  admin: 'Administrator',
  officer: 'Extension officer',
};

export function toUserRecord(
  { user, farmer, expert, profile }: Account,
  application: Awaited<ReturnType<ApplicationRecords['of']>>,
): UserRecord {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    phone: user.phone,
    language: user.language,
    district: user.district,
    accountComplete: profile !== null,
    needsDistrict: user.role === 'farmer' && user.district === null,
    profile: profile && {
      idType: profile.idType,
      idNumber: profile.idNumber,
      organisationName: profile.organisationName,
      firstName: profile.firstName,
      middleName: profile.middleName,
      lastName: profile.lastName,
      gender: profile.gender,
      physicalAddress: profile.physicalAddress,
      nationality: profile.nationality,
      dob: profile.dob,
      occupation: profile.occupation,
    },
    farmer: farmer && {
      farm_location: farmer.farmLocation,
      farm_size: farmer.farmSize,
      crop_types: farmer.cropTypes,
      sms_alerts: user.smsAlerts,
      voice_warnings: user.voiceWarnings,
    },
    expert: expert && {
      areas_of_expertise: expert.areasOfExpertise,
      certifications: expert.certifications,
      bio: expert.bio,
      experience_years: expert.experienceYears,
      institution: expert.institution,
      languages_spoken: expert.languagesSpoken,
      social_links: expert.socialLinks,
    },
    vetting: expert && {
      status: application?.status ?? 'pending',
      reason: application?.reason ?? null,
      decided_at: application?.decidedAt?.toISOString() ?? null,
    },
    account: {
      accountNumber: `KUTU-${String(user.id).padStart(6, '0')}`,
      accountType: ACCOUNT_TYPES[user.role],
      isActivated: user.activatedAt !== null,
      isPhoneVerified: user.phoneVerifiedAt !== null,
      isEmailVerified: user.emailVerifiedAt !== null,
      hasPassword: user.passwordHash !== null,
      website: null,
    },
  };
}
