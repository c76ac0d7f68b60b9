/**
 * What a logged error may carry: no personal data in the logs. A failing query's error (drizzle's DrizzleQueryError,
 * and PGlite's or node-postgres' error as its cause) holds the whole SQL and every parameter: emails,
 * phone numbers, texts, hashes. The log keeps the database's reason, its code and where in our code it
 * failed; the SQL and the values are left out.
 */

/** Properties of database errors that hold the statement or the values sent with it. */
const QUERY_PROPS = new Set(['query', 'params', 'queryOptions', 'internalQuery']);
const MAX_CAUSES = 8;
/** Set on the copy itself. */
const OWN_PROPS = new Set(['name', 'message', 'stack', 'cause']);

const isFailedQuery = (err: Error) => 'query' in err && 'params' in err && err.message.startsWith('Failed query:');

/** `err` as it may be logged: the same error when it carries no query, else a copy without it. */
export function withoutQueryText(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > MAX_CAUSES) return err;
  const cause = 'cause' in err ? withoutQueryText(err.cause, depth + 1) : undefined;
  const carriesQuery = Object.keys(err).some((key) => QUERY_PROPS.has(key));
  if (!carriesQuery && cause === err.cause) return err;
  const reason = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  const message = isFailedQuery(err) ? `Failed query (SQL and values left out of the log)${reason}` : err.message;
  const clean = new Error(message, cause === undefined ? undefined : { cause });
  Object.defineProperty(clean, 'name', { value: err.name === 'Error' ? err.constructor.name : err.name });
  // The stack's first lines repeat the message (with the SQL): keep only its frames.
  const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  clean.stack = [`${clean.name}: ${message}`, ...frames].join('\n');
  for (const [key, value] of Object.entries(err)) {
    if (QUERY_PROPS.has(key) || OWN_PROPS.has(key)) continue;
    Object.defineProperty(clean, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return clean;
}

/**
 * pino's `hooks.logMethod` for every logger of the app (children and job loggers inherit it): an
 * `err` (or `error`) logged with a message is cleaned before pino's error serializer sees it.
 */
export const errorLogHooks = {
  logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void) {
    const [first] = args;
    if (first instanceof Error) args[0] = withoutQueryText(first);
    else if (first && typeof first === 'object') {
      const obj = first as Record<string, unknown>;
      if (obj.err instanceof Error || obj.error instanceof Error) {
        args[0] = {
          ...obj,
          ...(obj.err instanceof Error && { err: withoutQueryText(obj.err) }),
          ...(obj.error instanceof Error && { error: withoutQueryText(obj.error) }),
        };
      }
    }
    return method.apply(this, args);
  },
};
