/**
 * The fields' API paths and a field name's length, without zod (`@kutu/contract/fields-paths`): the
 * phone's screens (the upload screen's field choice, the walk that works offline) import these and not
 * fields.ts, whose schemas would add zod to their download (the byte budget of bench/bundle-size.ts).
 * fields.ts re-exports them.
 */
export const FIELD_NAME_MAX = 40;

export const fieldsApi = {
  /** GET (farmer): the caller's fields, newest first (paginated); POST: a new field. */
  list: '/api/fields/',
  /** GET, PATCH (owner); DELETE (owner) retires it: its history stays, it leaves the lists. */
  detail: '/api/fields/:id/',
  detailPath: (id: number | string) => `/api/fields/${id}/`,
  /** GET (owner): the field's walks, newest first (paginated); POST (owner, `Idempotency-Key`): a walk. */
  walks: '/api/fields/:id/walks/',
  walksPath: (id: number | string) => `/api/fields/${id}/walks/`,
  /** GET (owner, or the expert who recorded it at a clinic): one walk with its advice. */
  walk: '/api/walks/:id/',
  walkPath: (id: number | string) => `/api/walks/${id}/`,
} as const;
