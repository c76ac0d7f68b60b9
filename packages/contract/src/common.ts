import { z } from 'zod';

/** Every failure the API returns has this shape. */
export const errorCodes = [
  'VALIDATION_ERROR',
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  /** An expert account an administrator has not approved yet (docs/decisions/0027). */
  'EXPERT_PENDING',
  /** An expert account an administrator refused (docs/decisions/0027). */
  'EXPERT_REFUSED',
  /** An extension officer account an administrator has not approved yet. */
  'OFFICER_PENDING',
  /** An extension officer account an administrator refused. */
  'OFFICER_REFUSED',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

/** Where a sign-in to an unfinished sign-up goes next: the SMS code, or the emailed code first. */
export const signUpSteps = ['activate_phone', 'verify_email'] as const;

export const errorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
    /**
     * Only on the 403 of a sign-in with the right password to a sign-up not finished, when a new code was
     * just sent: the sign-up token that lets this browser type that code, and on which screen.
     */
    signup: z.object({ token: z.string(), step: z.enum(signUpSteps) }).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const messageReply = z.object({ message: z.string() });
export type MessageReply = z.infer<typeof messageReply>;

/** `admin` is made only from the command line (`npm run admin:create`), never through the API (0027). */
/** `officer`: an extension officer of one or more districts, once an administrator approved them. */
export const roles = ['farmer', 'expert', 'admin', 'officer'] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;

/**
 * The roles an administrator approves before the account may act in them (docs/decisions/0093): the
 * server's gate refuses a pending or refused applicant at every route guarded for one of these. To add
 * one: docs/running.md, "Adding a role that needs approval".
 */
export const approvalRoles = ['expert', 'officer'] as const satisfies readonly Role[];
export type ApprovalRole = (typeof approvalRoles)[number];
/** Whether `role` waits for an administrator's approval. */
export const needsApproval = (r: Role): r is ApprovalRole => (approvalRoles as readonly Role[]).includes(r);

const WHOLE_TEXT = /^\d+$/;
const DECIMAL_TEXT = /^\d+(?:\.\d+)?$/;
/**
 * A number sent as text (a path, a query, a form field): read only when written in plain digits (with a
 * decimal point where `decimal`), else left for `schema` to refuse. `Number()`, which z.coerce uses,
 * also reads "0x10" as 16, "1e1" as 10, "1.0" as an id and "" as 0. A JSON number passes as it is.
 */
export const numberText = <T extends z.ZodType>(schema: T, kind: 'whole' | 'decimal' = 'whole') =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const text = v.trim();
    return (kind === 'decimal' ? DECIMAL_TEXT : WHOLE_TEXT).test(text) ? Number(text) : v;
  }, schema);

/** Row ids are PostgreSQL `integer` (int4): a larger number can never name a row. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * The one schema of a row id, wherever it comes from: a positive int4, so a huge number is a 400,
 * never a database error. `message` says it in one sentence for every way it can be wrong (a form's
 * words: "Choose a booking"); without it each check names `label`. A path, a query or a form field is
 * text read as a number; `rowId.json` takes only a JSON number (a body field: `true` is no id).
 */
export const rowId = (label = 'id', message?: string) =>
  numberText(
    z
      .number({ error: message ?? `${label} must be a number` })
      .int(message ?? `${label} must be a whole number`)
      .positive(message ?? `${label} must be positive`)
      .max(MAX_ROW_ID, message ?? `${label} must be at most ${MAX_ROW_ID}`),
  );

rowId.json = (label = 'id', message?: string) =>
  z
    .number({ error: message ?? `${label} must be a number` })
    .int(message ?? `${label} must be a whole number`)
    .positive(message ?? `${label} must be positive`)
    .max(MAX_ROW_ID, message ?? `${label} must be at most ${MAX_ROW_ID}`);

export const idParam = z.object({ id: rowId() });

/** `?page&page_size` as the spec's lists use them. */
export const pageQuery = z.object({
  page: numberText(z.number().int().min(1).default(1)),
  page_size: numberText(z.number().int().min(1).max(200).default(10)),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** `{count, next, previous, results}`: `next`/`previous` are page numbers or null. */
export function paginated<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.number().int().nullable(),
    previous: z.number().int().nullable(),
    results: z.array(item),
  });
}
export type Paginated<T> = { count: number; next: number | null; previous: number | null; results: T[] };

/** An ISO 8601 timestamp on the wire (always UTC, with Z). */
export const isoDateTime = z.string();
