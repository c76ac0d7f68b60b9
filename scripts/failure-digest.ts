import { stripVTControlCharacters } from 'node:util';

/**
 * The few lines of a failed step's output that say what failed: the failing test, the error and where it
 * was thrown (Vitest, Playwright, ESLint and tsc write these), without colours, each line once.
 */
const SAYS_WHAT_FAILED = /\bFAIL(ED)?\b|[✗✘×]|error|expected|timed out|❯ \S+:\d+:\d+|^\s+\d+\) /i;

export function failureDigest(output: string, maxLines = 20, maxWidth = 160): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const raw of stripVTControlCharacters(output).split('\n')) {
    const line = raw.trimEnd();
    if (!SAYS_WHAT_FAILED.test(line) || seen.has(line.trim())) continue;
    seen.add(line.trim());
    lines.push(line.length > maxWidth ? `${line.slice(0, maxWidth - 1)}…` : line);
    if (lines.length === maxLines) break;
  }
  return lines.length ? lines.join('\n') : output.trim().split('\n').slice(-maxLines).join('\n');
}
