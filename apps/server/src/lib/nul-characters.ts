import { badRequest } from './errors.ts';

/** Nested values deeper than this are not searched (the body limit keeps them small anyway). */
const MAX_DEPTH = 32;

/**
 * Where `value` holds a NUL character (U+0000) in a string or an object key: its path ("comment",
 * "items.2.text"), `''` at the top, or undefined when there is none. PostgreSQL text cannot store NUL:
 * let through, it fails as a database error (500) with the query in the log.
 */
export function nulCharacterAt(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\0')) return at;
    const found = nulCharacterAt(item, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Refuses a NUL character anywhere in `value` with 400 naming the field (its path). */
export function refuseNulCharacters(value: unknown) {
  const at = nulCharacterAt(value);
  if (at !== undefined) throw badRequest('errors.nulCharacter', { [at || 'body']: 'errors.nulCharacter' });
}
