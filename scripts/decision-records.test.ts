import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_WORDS, recordProblems, wordCount } from './decision-records.ts';

const SCRIPT = path.resolve(import.meta.dirname, 'decision-records.ts');
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const record = (body: string) =>
  `# 0099. A choice\n\n- Date: 2026-11-26\n- Status: Accepted\n\n## Context\n\n${body}\n`;
const INDEX = '| 0099 | [A choice](0099-a-choice.md) | Accepted |';

describe('decision records check', () => {
  it('passes a short record with its index row and no issue number', () => {
    const text = record('The cache was slow (#2b8a3e is a colour; GoogleChrome/lighthouse#17148 is upstream).');
    expect(recordProblems([{ name: '0099-a-choice.md', text }], INDEX)).toEqual([]);
  });

  it('fails a record over the word limit, one citing an issue, and one missing from the index', () => {
    const long = record(words(MAX_WORDS));
    expect(wordCount(long)).toBeGreaterThan(MAX_WORDS);
    const problems = recordProblems(
      [
        { name: '0099-a-choice.md', text: long },
        { name: '0100-cites.md', text: record('As issue 12 asked, and #45 measured.') },
      ],
      INDEX,
    );
    expect(problems).toEqual([
      expect.stringMatching(/^0099-a-choice\.md: \d+ words, over 450/),
      '0100-cites.md:8: cites "issue 12" (say the reason, not the issue number)',
      '0100-cites.md: no row in docs/decisions/README.md',
    ]);
  });

  it('fails when most records are long though none is over the limit', () => {
    const names = ['0099-a-choice.md', '0100-b.md', '0101-c.md'];
    const records = names.map((name) => ({ name, text: record(words(410)) }));
    const index = names.map((name) => `(${name})`).join('\n');
    expect(recordProblems(records, index)).toEqual(['median record length 422 words, over 400']);
  });

  it('exits non-zero on a folder with a bad record, and zero once it is mended', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kutu-decisions-'));
    try {
      fs.writeFileSync(path.join(dir, 'README.md'), INDEX);
      fs.writeFileSync(path.join(dir, '0099-a-choice.md'), record('Issue 7 wanted it.'));
      const bad = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('0099-a-choice.md:8: cites "Issue 7"');
      fs.writeFileSync(path.join(dir, '0099-a-choice.md'), record('Farmers on 2G waited too long.'));
      const good = spawnSync(process.execPath, [SCRIPT, dir], { encoding: 'utf8' });
      expect(good.stderr).toBe('');
      expect(good.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
