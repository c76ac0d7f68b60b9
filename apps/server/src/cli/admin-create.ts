/**
 * npm run admin:create -- --email ADDRESS --phone +2567XXXXXXXX [--username NAME] [--language en|sw|lg]
 *
 * Makes an administrator account, the only role that approves or refuses expert accounts
 * (docs/decisions/0027). There is no other way to get one: the API never creates or promotes an admin.
 * The password is read from standard input (first line) when it is piped in, else asked for twice at a
 * prompt that does not echo it; it is stored as an argon2id hash like every account's. The account is
 * active at once. Uses the server's configuration (DATABASE_URL, or the PGlite database under DATA_DIR)
 * and applies pending migrations first. With PGlite, while a server has the database open
 * (db/pglite-lock.ts), that server makes the account for the command over DATA_DIR's control socket.
 */
import { DatabaseInUseError } from '../db/pglite-lock.ts';
import path from 'node:path';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type Language, languages } from '@kutu/contract';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { AdminInputError, checkAdminInput, createAdmin } from '../modules/auth/admin-account.ts';
import { requestAdmin } from '../modules/backup/control.ts';
import { OWNER_UMASK } from '../lib/owner-only.ts';

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
    // A running server holds the embedded database: it makes the account for us (modules/backup/control.ts).
    if (!database && !config.databaseUrl) {
      const made = await requestAdmin(config.dataDir, input);
      if (made && 'problem' in made) throw new AdminInputError(made.problem);
      if (made) {
        stdout.write(
          `Administrator ${made.username} (id ${made.id}) created by the running server; sign in with ${input.email}.\n`,
        );
        return 0;
      }
    }
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
  // A database this command creates is its owner's alone, as the server's (docs/decisions/0125).
  process.umask(OWNER_UMASK);
  process.exitCode = await runAdminCreate(process.argv.slice(2));
}
