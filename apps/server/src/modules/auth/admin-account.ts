import { eq, or, sql } from 'drizzle-orm';
import { e164, type Language, PASSWORD_MAX, passwordProblem } from '@kutu/contract';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { normaliseEmail } from './email.ts';
import { hashSecret } from './passwords.ts';

/*
 * Administrators are made only from the command line (`npm run admin:create`, docs/decisions/0027):
 * by the command itself, or, where a running server holds the embedded database, by that server for
 * the command over DATA_DIR's control socket (modules/backup/control.ts).
 */

export interface AdminInput {
  email: string;
  phone: string;
  password: string;
  username?: string;
  language?: Language;
}

/** A problem the person running the command can fix; printed without a stack trace. */
export class AdminInputError extends Error {}

const USERNAME = /^[A-Za-z0-9_.-]{3,40}$/;

/** The input checked and normalised, or the problem in words; no database needed. */
export function checkAdminInput(input: AdminInput): Required<AdminInput> {
  const normalised = normaliseEmail(input.email);
  if ('problem' in normalised) throw new AdminInputError(`--email: ${normalised.problem}`);
  const email = normalised.email;
  if (!e164.safeParse(input.phone).success) {
    throw new AdminInputError(
      '--phone: give a number that can exist, with its country code (Uganda, Kenya or their neighbours), e.g. +256772123456',
    );
  }
  const local = email.slice(0, email.indexOf('@')).replace(/[^A-Za-z0-9_.-]/g, '');
  const username = input.username ?? (local.length >= 3 ? local : `admin_${local}`).slice(0, 40);
  if (!USERNAME.test(username)) {
    throw new AdminInputError('--username: 3 to 40 letters, digits, dot, dash or underscore');
  }
  if (input.password.length > PASSWORD_MAX) {
    throw new AdminInputError(`The password must be at most ${PASSWORD_MAX} characters`);
  }
  const weak = passwordProblem(input.password);
  if (weak) {
    throw new AdminInputError(`${weak}: use at least 8 characters with upper and lower case, a digit and a symbol`);
  }
  return { email, phone: input.phone, password: input.password, username, language: input.language ?? 'en' };
}

/** Checks the input and inserts the admin; returns the new account's id and username. */
export async function createAdmin(
  db: Db,
  raw: AdminInput,
  now = new Date(),
): Promise<{ id: number; username: string }> {
  const input = checkAdminInput(raw);
  const { email, username } = input;
  const clash = await db
    .select({ id: users.id })
    .from(users)
    .where(
      or(
        sql`lower(${users.email}) = lower(${email})`,
        sql`lower(${users.username}) = lower(${username})`,
        eq(users.phone, input.phone),
      ),
    );
  if (clash.length > 0)
    throw new AdminInputError('An account with this email, username or phone number already exists');

  const passwordHash = await hashSecret(input.password);
  const [row] = await db
    .insert(users)
    .values({
      email,
      username,
      role: 'admin',
      phone: input.phone,
      passwordHash,
      language: input.language,
      emailVerifiedAt: now,
      phoneVerifiedAt: now,
      activatedAt: now,
      createdAt: now,
    })
    .returning({ id: users.id, username: users.username });
  return row!;
}

/** What the control socket answers `POST /admin` with: the new account, or the problem in words. */
export async function adminOverSocket(db: Db, body: unknown): Promise<{ status: number; body: object }> {
  try {
    return { status: 201, body: await createAdmin(db, body as AdminInput) };
  } catch (err) {
    if (err instanceof AdminInputError || err instanceof TypeError)
      return { status: 400, body: { error: err.message } };
    throw err;
  }
}
