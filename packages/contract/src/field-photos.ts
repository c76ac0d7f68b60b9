import type { RustClass } from './enums.ts';

/**
 * A second photo when unsure (docs/decisions/0040). Zod-free, so the server, the
 * result screen and the phone's offline diagnosis read the same rule.
 */

/** At most this many photos make one field-level answer: the first and two more leaves. */
export const MAX_FIELD_PHOTOS = 3;

export type SecondPhotoReason = 'unsure' | 'close';

export interface SecondPhotoAsk {
  /** Why more photos would help; null when the answer is sure (more leaves may still be added). */
  reason: SecondPhotoReason | null;
  /** The class the answer came close to (the second most likely); null when not asking. */
  runner_up: RustClass | null;
  /**
   * How many more leaves the farmer may add now: up to `MAX_FIELD_PHOTOS` for any diagnosis, sure or
   * not (a plant doctor looks at several leaves whatever the first one showed; decision 0048); 0 for a
   * photo with no leaf and at the limit.
   */
  photos_left: number;
}

/**
 * Rust was seen on some of the field's leaves, but not sure for the whole field (decision
 * 0061-rust-on-any-leaf): a leaf that is a confident rust answer on its own is never outvoted into a sure
 * "healthy" or "other disease". Such an answer gives the rust advice (walk the field, count the plants
 * with rust) and says on how many leaves rust was seen.
 */
export function rustSeenOnSome(a: {
  outcome: string;
  unsure: boolean;
  rust_class: string | null;
  rust_leaves?: number | null;
}): boolean {
  return a.outcome === 'diagnosis' && a.unsure && a.rust_class === 'common_rust' && (a.rust_leaves ?? 0) > 0;
}

/** The two most likely classes, most likely first. */
export function topTwo(probabilities: Partial<Record<string, number>>): [string, number][] {
  return Object.entries(probabilities)
    .filter((e): e is [string, number] => typeof e[1] === 'number')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2);
}

/**
 * Whether (and why) the result asks for another photo of the same field, and how many it may still take.
 * `closeMargin` (the served card's `answer.closeMargin`, read by `cardSettings` in packages/vision): a
 * confident answer still counts as "close" when its class leads the runner-up by less than this (top-1
 * minus top-2 share). Under the served card's unsure cut (0.9 of the class share, decision 0038) a confident
 * answer always leads by more than 0.8, so 0.4 asks nothing today; it guards a card with a lower cut (the
 * cut was 0.5 until decision 0038). Example: the committed model reads the bean angular leaf spot test photo
 * (apps/server/test/fixtures) as rust 0.66 against other disease 0.31; a 0.5 cut would call that rust, a
 * confident wrong answer. One or two more leaves of the field cost the farmer a minute; a wrong "rust" costs a
 * fungicide, a wrong "other disease" the window to spray.
 */
export function secondPhotoAsk(
  a: {
    outcome: string;
    unsure: boolean;
    probabilities: Partial<Record<string, number>>;
    photo_count: number;
    rust_class?: string | null;
    rust_leaves?: number | null;
  },
  closeMargin: number,
): SecondPhotoAsk {
  const none: SecondPhotoAsk = { reason: null, runner_up: null, photos_left: 0 };
  if (a.outcome !== 'diagnosis' || a.photo_count >= MAX_FIELD_PHOTOS) return none;
  const photos_left = MAX_FIELD_PHOTOS - a.photo_count;
  // Rust seen on a leaf: more leaves show how far it has spread, not which class it is.
  if (rustSeenOnSome({ ...a, rust_class: a.rust_class ?? null })) return { ...none, photos_left };
  const [first, second] = topTwo(a.probabilities);
  if (!first || !second) return { ...none, photos_left };
  const reason = a.unsure ? 'unsure' : first[1] - second[1] < closeMargin ? 'close' : null;
  if (!reason) return { ...none, photos_left };
  return { reason, runner_up: second[0] as RustClass, photos_left };
}

/**
 * An unsure answer that can take no more leaves (or was made from all it could take) waits for an
 * expert: every analysis is in the experts' review queue, unsure ones first (decision 0048). The result
 * then says so instead of asking for a photo that cannot be added.
 */
export function waitsForExpert(a: {
  outcome: string;
  unsure: boolean;
  second_photo: SecondPhotoAsk;
  /** An expert's verdict, where the result carries it: then the wait is over. */
  expert_verdict?: string | null;
  rust_class?: string | null;
  rust_leaves?: number | null;
}): boolean {
  // Rust seen on a leaf gives the rust advice (walk the field) instead; the experts still see the photos.
  if (rustSeenOnSome({ ...a, rust_class: a.rust_class ?? null })) return false;
  return a.outcome === 'diagnosis' && a.unsure && a.second_photo.photos_left === 0 && !a.expert_verdict;
}
