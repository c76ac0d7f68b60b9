import { domainToASCII } from 'node:url';

/** Invisible format characters (zero-width space and joiners, bidi marks, soft hyphen, BOM). */
const FORMAT_CHARACTERS = /\p{Cf}/gu;
const NON_ASCII = /[^\x20-\x7e]/;

export const emailScriptProblem =
  'Please use an email address written with Latin letters (a-z), digits and . _ - + only';

/**
 * One spelling per mailbox, so look-alikes cannot make a second account (docs/decisions/0008, L9):
 * NFKC (full-width letters become ASCII, NFD and NFC agree), invisible format characters removed, an
 * internationalised domain in its ASCII (punycode) form, lower case. What is left must be ASCII: other
 * scripts in the address (Cyrillic "а" for Latin "a", combining accents) are refused rather than
 * compared by a confusables skeleton, which would need a table we would have to keep current.
 */
export function normaliseEmail(raw: string): { email: string } | { problem: string } {
  const cleaned = raw.normalize('NFKC').replace(FORMAT_CHARACTERS, '').trim().toLowerCase();
  const at = cleaned.lastIndexOf('@');
  if (at <= 0 || at === cleaned.length - 1) return { problem: 'This is a wrong email' };
  const local = cleaned.slice(0, at);
  const domain = domainToASCII(cleaned.slice(at + 1));
  if (!domain) return { problem: 'This is a wrong email' };
  if (NON_ASCII.test(local) || NON_ASCII.test(domain) || domain.split('.').some(isInternationalLabel)) {
    return { problem: emailScriptProblem };
  }
  return { email: `${local}@${domain}` };
}

/** An internationalised domain label (punycode): refused like a non-ASCII local part. */
function isInternationalLabel(label: string) {
  return label.startsWith('xn--');
}
