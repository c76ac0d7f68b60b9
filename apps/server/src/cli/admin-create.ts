/**
 * npm run admin:create -- --email ADDRESS --phone +2567XXXXXXXX [--username NAME] [--language en|sw|lg]
 *
 * Makes an administrator account, the only role that approves or refuses expert accounts
 * (docs/decisions/0027). There is no other way to get one: the API never creates or promotes an admin.
 * The password is read from standard input (first line) when it is piped in, else asked for twice at a
 * prompt that does not echo it; it is stored as an argon2id hash like every account's. The account is
 * active at once. Uses the server's configuration (DATABASE_URL, or the PGlite database under DATA_DIR)
 * and applies pending migrations first. With PGlite it refuses, in one line, while the server has the
 * database open (db/pglite-lock.ts): stop the server first.
 */
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import path from 'node:path';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { eq, or, sql } from 'drizzle-orm';
import { e164, type Language, languages, PASSWORD_MAX, passwordProblem } from '@kutu/contract';
import { loadConfig } from '../config.ts';
import { type Database, type Db, openDatabase } from '../db/client.ts';
import { users } from '../db/schema/index.ts';
import { normaliseEmail } from '../modules/auth/email.ts';
import { hashSecret } from '../modules/auth/passwords.ts';

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
    throw new AdminInputError('--phone: give the number with its country code, e.g. +256772123456');
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

/** The password: the first line of piped standard input, or typed twice at a prompt that does not echo. */
export async function readPassword(
  input: NodeJS.ReadableStream & { isTTY?: boolean },
  output: NodeJS.WritableStream,
): Promise<string> {
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  const ask = (question: string) =>
    new Promise<string>((resolve) => {
      let muted = false;
      // The prompt is written; what is typed after it is not echoed.
      const screen = new Writable({
        write(chunk, _encoding, done) {
          if (!muted) output.write(chunk);
          done();
        },
      });
      const rl = readline.createInterface({ input, output: screen, terminal: true });
      rl.question(question, (answer) => {
        rl.close();
        output.write('\n');
        resolve(answer);
      });
      muted = true;
    });
  const first = await ask('Password: ');
  const again = await ask('Password again: ');
  if (first !== again) throw new AdminInputError('The two passwords differ');
  return first;
}

/** The command: parses `argv`, reads the password, opens the configured database. Returns the exit code. */
export async function runAdminCreate(
  argv: string[],
  io: {
    env?: NodeJS.ProcessEnv;
    stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
    stdout?: NodeJS.WritableStream;
    stderr?: NodeJS.WritableStream;
    /** A database to use instead of the configured one (tests); it stays open. */
    database?: Database;
  } = {},
): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        phone: { type: 'string' },
        username: { type: 'string' },
        language: { type: 'string' },
      },
    }));
  } catch (err) {
    stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  if (!values.email || !values.phone) {
    stderr.write(
      'Usage: npm run admin:create -- --email ADDRESS --phone +2567XXXXXXXX [--username NAME] [--language en|sw|lg]\n',
    );
    return 2;
  }
  if (values.language && !(languages as readonly string[]).includes(values.language)) {
    stderr.write(`--language: one of ${languages.join(', ')}\n`);
    return 2;
  }
  const config = loadConfig(io.env ?? process.env);
  let opened: Database | undefined;
  try {
    const password = await readPassword(io.stdin ?? process.stdin, stdout);
    // Checked before the database opens: a typo is answered at once.
    const input = checkAdminInput({
      email: values.email,
      phone: values.phone,
      password,
      username: values.username,
      language: values.language as Language | undefined,
    });
    let database = io.database;
    if (!database) {
      opened = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
      await opened.migrate();
      database = opened;
    }
    const admin = await createAdmin(database.db, input);
    stdout.write(`Administrator ${admin.username} (id ${admin.id}) created; sign in with ${values.email}.\n`);
    return 0;
  } catch (err) {
    if (err instanceof AdminInputError || err instanceof DatabaseInUseError) {
      stderr.write(`${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    await opened?.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await runAdminCreate(process.argv.slice(2));
}
