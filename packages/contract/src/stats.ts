// Shares and their uncertainty, for the figures people read (a field's incidence, the model's field figures).
// Without zod, so the phone can use them too.

export interface ShareInterval {
  /** part ÷ whole, 0..1. */
  share: number;
  /** The 95 % Wilson score interval of the share, 0..1. */
  low: number;
  high: number;
}

export const Z95 = 1.959964;

/** `part` of `whole` and its 95 % Wilson interval (right for small counts and for shares near 0 or 1); null for none. */
export function wilsonInterval(part: number, whole: number): ShareInterval | null {
  if (whole <= 0) return null;
  const p = part / whole;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * whole)) / (1 + z2 / whole);
  const half = (Z95 / (1 + z2 / whole)) * Math.sqrt((p * (1 - p)) / whole + z2 / (4 * whole * whole));
  return { share: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
