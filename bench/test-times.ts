/**
 * Where the suite's time goes: the slowest test files or specs, from the JSON reports of a run
 * (docs/testing.md#where-the-time-goes). Each argument is a report:
 *   vitest run --reporter=json --outputFile=/tmp/vitest.json
 *   PLAYWRIGHT_JSON_OUTPUT_NAME=/tmp/e2e.json playwright test --reporter=json
 * `node bench/test-times.ts /tmp/vitest.json /tmp/e2e.json [--top 25]` prints a Markdown table per report:
 * each file's summed test time, its tests, and (e2e) each project's total.
 */
import fs from 'node:fs';
import path from 'node:path';
import { atLeast, ensure } from './measured.ts';

interface VitestReport {
  testResults: { name: string; startTime: number; endTime: number; assertionResults: unknown[] }[];
}
interface PlaywrightSuite {
  file?: string;
  specs?: { file: string; tests: { projectName: string; results: { duration: number }[] }[] }[];
  suites?: PlaywrightSuite[];
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? atLeast(Number(args.splice(topAt, 2)[1]), 1, 'rows (--top)') : 25;
ensure(args.length > 0, 'a report named on the command line');

for (const report of args) {
  const json = JSON.parse(fs.readFileSync(report, 'utf8')) as VitestReport | { suites: PlaywrightSuite[] };
  const rows = new Map<string, { ms: number; tests: number }>();
  const projects = new Map<string, number>();
  const add = (file: string, ms: number, tests: number) => {
    const row = rows.get(file) ?? { ms: 0, tests: 0 };
    rows.set(file, { ms: row.ms + ms, tests: row.tests + tests });
  };
  if ('testResults' in json) {
    for (const f of json.testResults)
      add(path.relative(process.cwd(), f.name), f.endTime - f.startTime, f.assertionResults.length);
  } else {
    const walk = (suite: PlaywrightSuite) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests)
          for (const result of test.results) {
            add(`e2e/${spec.file}`, result.duration, 1);
            projects.set(test.projectName, (projects.get(test.projectName) ?? 0) + result.duration);
          }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of json.suites) walk(suite);
  }
  atLeast(rows.size, 1, `timed files in ${report}`);
  const sorted = [...rows].sort((a, b) => b[1].ms - a[1].ms);
  const total = sorted.reduce((sum, [, r]) => sum + r.ms, 0);
  console.log(`\n${report}: ${rows.size} files, ${(total / 1000).toFixed(0)} s of test time`);
  for (const [name, ms] of projects) console.log(`  project ${name}: ${(ms / 1000).toFixed(0)} s`);
  console.log('\n| File | Tests | Seconds |\n| --- | ---: | ---: |');
  for (const [file, r] of sorted.slice(0, top))
    console.log(`| \`${file}\` | ${r.tests} | ${(r.ms / 1000).toFixed(1)} |`);
}
