import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from './dataset.ts';
import { pythonEnv } from './python.ts';
import { PYTHON } from './train.ts';

const run = promisify(execFile);
const FOLDERS = ['trainer', 'recipe', 'provenance', 'research'];

function pythonFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '__pycache__' ? [] : pythonFiles(file);
    return e.name.endsWith('.py') ? [file] : [];
  });
}

// Twelve scripts once edited sys.path to find each other; they are one package now (docs/decisions/0043).
describe('the Python package (pyproject.toml)', () => {
  const files = FOLDERS.flatMap((f) => pythonFiles(path.join(packageRoot, f)));

  it('is a package in every folder, and no file edits sys.path', () => {
    expect(files.length).toBeGreaterThan(20);
    for (const dir of new Set(files.map((f) => path.dirname(f)))) {
      expect(fs.existsSync(path.join(dir, '__init__.py')), path.relative(packageRoot, dir)).toBe(true);
    }
    const editing = files.filter((f) => /sys\.path\.(insert|append)|sys\.path\s*=/.test(fs.readFileSync(f, 'utf8')));
    expect(editing.map((f) => path.relative(packageRoot, f))).toEqual([]);
  });

  it('imports the trainer and the recipe by their package names, as src/train.ts runs them', async () => {
    const modules = [
      'trainer.train',
      'trainer.train_head',
      'trainer.features',
      'trainer.validate',
      'trainer.export',
      'recipe.sweep',
      'recipe.to_served',
      'recipe.quantize_int8',
      'recipe.pack',
      'recipe.queue',
      'research.oof.from_sweep',
    ];
    const code = `import importlib\nfor m in ${JSON.stringify(modules)}: importlib.import_module(m)\nprint('ok')`;
    const { stdout } = await run(PYTHON, ['-c', code], { env: pythonEnv() });
    expect(stdout.trim()).toBe('ok');
  });
});
