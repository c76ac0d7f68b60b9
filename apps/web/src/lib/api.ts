import { api as paths } from '@kutu/contract/paths';
import { currentLanguage, t } from './language.ts';
import { session } from './session.ts';

/** A failed API call: the server's `{error: {code, message, fields}}` or a network failure. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  /** A sign-in to an unfinished sign-up: the token to type the new code with, and on which screen. */
  readonly signup?: { token: string; step: 'activate_phone' | 'verify_email' };
  constructor(
    status: number,
    code: string,
    message: string,
    fields: Record<string, string> = {},
    signup?: ApiError['signup'],
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.signup = signup;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  form?: FormData;
  query?: Record<string, string | number | boolean | undefined | null>;
  auth?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `Idempotency-Key`). */
  headers?: Record<string, string>;
}

/** No answer from the server (no signal, server down), in the language on screen. */
export const networkError = () => new ApiError(0, 'NETWORK_ERROR', t('shell.networkError'));

let refreshing: Promise<boolean> | null = null;

/** Rotates the refresh token once for all callers that hit an expired access token together. */
async function refreshTokens(): Promise<boolean> {
  const refresh = session.refreshToken();
  if (!refresh) return false;
  refreshing ??= fetch(paths.auth.refresh, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': currentLanguage() },
    body: JSON.stringify({ refresh }),
  })
    .then(async (res) => {
      if (!res.ok) return false;
      session.setTokens(await res.json());
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Called when the server rejects the session and it cannot be refreshed. */
const onSessionExpired = () => {
  // Requests sent together fail together, and one may fail after the screen has already moved to sign in:
  // the first ends the session and saves the page; a later one must not save the sign-in page over it.
  if (!session.accessToken() && !session.refreshToken()) return;
  session.saveReturnTo(window.location.pathname + window.location.search);
  session.signOut();
  // Sign in says why the user is there, then goes back to the saved page.
  window.location.assign('/auth?expired=1');
};

function buildUrl(path: string, query?: RequestOptions['query']) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  // The server words its errors (and what it sends by SMS or email) in the language on screen.
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': currentLanguage(),
    ...opts.headers,
  };
  let body: BodyInit | undefined;
  if (opts.form) body = opts.form;
  else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await signedFetch(
      buildUrl(path, opts.query),
      { method: opts.method ?? (body ? 'POST' : 'GET'), headers, body, signal: opts.signal },
      opts.auth !== false,
    );
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw networkError();
  }
  if (res.status === 204) return undefined as T;
  const isJson = res.headers.get('content-type')?.includes('application/json');
  const data = isJson ? await res.json().catch(() => null) : null;
  if (!res.ok) {
    const e = data?.error;
    throw new ApiError(
      res.status,
      e?.code ?? 'HTTP_ERROR',
      e?.message ?? t('shell.requestFailed', { status: res.status }),
      e?.fields ?? {},
      e?.signup,
    );
  }
  return data as T;
}

/**
 * `fetch` with the access token (unless `auth` is false), sent again once after a token refresh; a 401 that
 * no refresh mends ends the session, and the caller reads the 401.
 */
async function signedFetch(
  url: string,
  init: RequestInit & { headers: Record<string, string> },
  auth: boolean,
): Promise<Response> {
  for (let retried = false; ; retried = true) {
    const token = auth ? session.accessToken() : null;
    const res = await fetch(
      url,
      token ? { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } } : init,
    );
    if (res.status !== 401 || !token || retried) return res;
    if (!(await refreshTokens())) {
      onSessionExpired();
      return res;
    }
  }
}

/**
 * A signed-in GET whose answer is a file, not JSON (a sample's photo, a recording, the offline model): the
 * response itself, for the caller to read as it needs (a blob, a stream with progress); `auth: false` sends
 * no token.
 */
export const fetchFile = (url: string, opts: { signal?: AbortSignal; auth?: boolean } = {}) =>
  signedFetch(url, { headers: {}, signal: opts.signal }, opts.auth !== false);

export const http = {
  get: <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) => request<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'body' | 'method'> = {}) =>
    request<T>(path, { ...opts, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, opts: Omit<RequestOptions, 'body' | 'method'> = {}) =>
    request<T>(path, { ...opts, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown) => request<T>(path, { method: 'PATCH', body }),
  delete: <T>(path: string) => request<T>(path, { method: 'DELETE' }),
  upload: <T>(path: string, form: FormData) => request<T>(path, { method: 'POST', form }),
};

/** The message to show for any thrown value. */
export function errorMessage(err: unknown, fallback = t('shell.somethingWrong')): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}
