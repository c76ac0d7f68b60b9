/**
 * `npm run lint:length`: the house rule that no source file of the apps or the packages is over 400 lines,
 * tests aside (`*.test.ts(x)` and anything under a `test/` folder). A longer file is split by job
 * (docs/CONTRIBUTING.md). Checks the src folder of every app and package
 * (apps/<name>/src, packages/<name>/src), or the folders given as arguments.
 */
import fs from 'node:fs';
import path from 'node:path';

const MAX_LINES = 400;
const everySrc = ['apps', 'packages'].flatMap((root) =>
  fs
    .readdirSync(root)
    .map((name) => path.join(root, name, 'src'))
    .filter((dir) => fs.existsSync(dir)),
);
const folders = process.argv.length > 2 ? process.argv.slice(2) : everySrc;

const isSource = (file: string) =>
  /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.split(path.sep).includes('test');

const tooLong: string[] = [];
let checked = 0;
for (const folder of folders) {
  for (const entry of fs.readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(folder, entry);
    if (!isSource(entry) || !fs.statSync(file).isFile()) continue;
    checked++;
    const text = fs.readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_LINES) tooLong.push(`${file}: ${lines} lines`);
  }
}
if (checked === 0) {
  console.error(`lint:length found no source files in ${folders.join(', ')}`);
  process.exit(1);
}
if (tooLong.length > 0) {
  console.error(`Over ${MAX_LINES} lines (split by job, docs/CONTRIBUTING.md):\n${tooLong.join('\n')}`);
  process.exit(1);
}
console.log(`lint:length: ${checked} source files, none over ${MAX_LINES} lines`);
