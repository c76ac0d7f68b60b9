/**
 * `npm run lint:decisions`: the decision records in docs/decisions stay short and readable by anyone with
 * the repository. Each says context, decision and consequences in about 400 words (none over
 * MAX_WORDS, the median at most MEDIAN_WORDS, counted as `wc -w` does); details, tables and logs go to
 * bench/reports/ or the model card, linked. None cites an issue by number ("issue 12", "#12"): the
 * tracker is not part of the repository, so a record says the reason instead. Every record has its
 * row in docs/decisions/README.md.
 */
import fs from 'node:fs';
import path from 'node:path';

export const MAX_WORDS = 450;
export const MEDIAN_WORDS = 400;

/** "issue 12", "Issues 3 and 4", "issue #12", or a bare "#12" (a colour such as #495057 is longer). */
const ISSUE_CITATION = /\bissues?\s+#?\d+|(?:^|[\s([])#\d{1,4}\b/i;

export interface DecisionRecord {
  name: string;
  text: string;
}

export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** What is wrong with the records (empty when nothing is); `index` is the README's text. */
export function recordProblems(records: DecisionRecord[], index: string): string[] {
  const problems: string[] = [];
  for (const { name, text } of records) {
    const words = wordCount(text);
    if (words > MAX_WORDS) {
      problems.push(`${name}: ${words} words, over ${MAX_WORDS} (details go to bench/reports/, linked)`);
    }
    for (const [i, line] of text.split('\n').entries()) {
      const cited = ISSUE_CITATION.exec(line);
      if (cited) problems.push(`${name}:${i + 1}: cites "${cited[0].trim()}" (say the reason, not the issue number)`);
    }
    if (!index.includes(`(${name})`)) problems.push(`${name}: no row in docs/decisions/README.md`);
  }
  const counts = records.map((r) => wordCount(r.text)).sort((a, b) => a - b);
  const mid = counts.length >> 1;
  const median = counts.length % 2 ? counts[mid] : (counts[mid - 1] + counts[mid]) / 2;
  if (counts.length > 0 && median > MEDIAN_WORDS) {
    problems.push(`median record length ${median} words, over ${MEDIAN_WORDS}`);
  }
  return problems;
}

if (import.meta.main) {
  const dir = process.argv[2] ?? 'docs/decisions';
  const records = fs
    .readdirSync(dir)
    .filter((name) => /^\d{4}-.+\.md$/.test(name))
    .map((name) => ({ name, text: fs.readFileSync(path.join(dir, name), 'utf8') }));
  if (records.length === 0) {
    console.error(`lint:decisions found no records in ${dir}`);
    process.exit(1);
  }
  const problems = recordProblems(records, fs.readFileSync(path.join(dir, 'README.md'), 'utf8'));
  if (problems.length > 0) {
    console.error(`Decision records (docs/CONTRIBUTING.md, "Decision records"):\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log(`lint:decisions: ${records.length} records, none over ${MAX_WORDS} words, none citing an issue`);
}
