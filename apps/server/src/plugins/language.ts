import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Language } from '@kutu/contract';
import { type Message, render } from '../i18n/i18n.ts';
import { preferredLanguage } from '../lib/accept-language.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The language to answer this request in: the signed-in account's, else the browser's
     * Accept-Language, else English (docs/decisions/0022). Looked up once per request and caller.
     */
    language(): Promise<Language>;
  }
}

/**
 * The one rule for "which language is this request in", and the one place where replies' texts are
 * written in it: a service returns `message` fields as Messages (key and values), and the reply hook
 * renders them, as the error handler renders errors.
 */
export function registerLanguage(
  app: FastifyInstance,
  opts: { accountLanguage: (userId: number) => Promise<Language | undefined> },
) {
  const known = new WeakMap<FastifyRequest, { userId: number | null; language: Promise<Language> }>();

  async function lookUp(req: FastifyRequest): Promise<Language> {
    // A failed lookup must not fail the reply (nor an error reply twice): the browser's choice stands in.
    const stored = req.auth ? await opts.accountLanguage(req.auth.userId).catch(() => undefined) : undefined;
    return languageOf(req, stored);
  }

  app.decorateRequest('language', function (this: FastifyRequest) {
    const userId = this.auth?.userId ?? null;
    let entry = known.get(this);
    // Asked before authentication ran (an early error), then after: the caller is known now.
    if (entry?.userId !== userId) {
      entry = { userId, language: lookUp(this) };
      known.set(this, entry);
    }
    return entry.language;
  });

  // Only replies that carry a Message pay for the lookup.
  app.addHook('preSerialization', async (req, _reply, payload: unknown) =>
    hasMessage(payload) ? withMessagesIn(await req.language(), payload) : payload,
  );
}

/**
 * The rule of `req.language()` for a caller whose account language was read already (with other data,
 * in one query): the account's, else the browser's, else English.
 */
export function languageOf(req: FastifyRequest, stored: Language | null | undefined): Language {
  return stored ?? preferredLanguage(req.headers['accept-language']) ?? 'en';
}

/**
 * A reply whose `message` fields are still Messages, typed as what the reply hook makes of them: the
 * strings of the contract's response schemas.
 */
export const renderedOnSend = <T>(reply: T) => reply as Rendered<T>;
type Rendered<T> = T extends readonly (infer U)[]
  ? Rendered<U>[]
  : T extends Date
    ? T
    : T extends object
      ? { [K in keyof T]: K extends 'message' ? (T[K] extends Message ? string : T[K]) : Rendered<T[K]> }
      : T;

const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && ('key' in value || 'contract' in value);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

function hasMessage(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasMessage);
  if (!isRecord(value)) return false;
  return Object.entries(value).some(([key, v]) => (key === 'message' && isMessage(v)) || hasMessage(v));
}

/** `value` with every Message under a `message` key written in `language`; copies, never changes, the service's objects. */
function withMessagesIn(language: Language, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => withMessagesIn(language, v));
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === 'message' && isMessage(v) ? render(language, v) : withMessagesIn(language, v),
    ]),
  );
}
