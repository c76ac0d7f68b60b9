/**
 * The statements this process sends to PostgreSQL, seen at the driver (node-postgres' `Client#query`, which the
 * pool and Drizzle both go through): `watchQueries()` returns a recorder that keeps every statement's text and
 * values while `recording(fn)` runs. A bench counts with it how many statements a step made of a kind (one
 * recipients' query per district), or replays them under EXPLAIN (ANALYZE, BUFFERS).
 */
import pg from 'pg';

export interface Statement {
  text: string;
  values: unknown[];
  /** Its time from sent to answered (ms), once answered (promise-style calls, as the pool and Drizzle make). */
  ms?: number;
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;
let seen: Statement[] | null = null;
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  const query = pg.Client.prototype.query as unknown as Query;
  (pg.Client.prototype as unknown as { query: Query }).query = function (this: pg.Client, ...args: unknown[]) {
    let statement: Statement | undefined;
    if (seen) {
      const [first, second] = args;
      if (typeof first === 'string') statement = { text: first, values: Array.isArray(second) ? second : [] };
      else if (first && typeof first === 'object' && 'text' in first) {
        const q = first as { text: string; values?: unknown[] };
        statement = { text: q.text, values: q.values ?? (Array.isArray(second) ? second : []) };
      }
      if (statement) seen.push(statement);
    }
    const started = performance.now();
    const answer = query.apply(this, args);
    if (statement && answer instanceof Promise) {
      const s = statement;
      answer.then(
        () => {
          s.ms = performance.now() - started;
        },
        () => {},
      );
    }
    return answer;
  };
}

/** Runs `fn`, and returns its result with the statements this process sent meanwhile (one recording at a time). */
export async function recording<T>(fn: () => Promise<T>): Promise<{ result: T; statements: Statement[] }> {
  install();
  if (seen) throw new Error('one recording at a time');
  const statements: Statement[] = [];
  seen = statements;
  try {
    return { result: await fn(), statements };
  } finally {
    seen = null;
  }
}

/** The statements of `statements` that read data (select or with), each once, as EXPLAIN can replay them. */
export function reads(statements: Statement[]): Statement[] {
  const out = new Map<string, Statement>();
  for (const s of statements) if (/^\s*(select|with)\b/i.test(s.text)) out.set(s.text, s);
  return [...out.values()];
}
