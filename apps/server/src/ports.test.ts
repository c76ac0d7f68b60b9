import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = import.meta.dirname;
const BENCH = path.resolve(SRC, '../../../bench');
const PORTS = fs.readFileSync(path.join(SRC, 'ports.ts'), 'utf8');

/** Each fact or condition ports.ts imports from a module's service, with that module. */
function portParts() {
  const parts: { name: string; module: string }[] = [];
  for (const m of PORTS.matchAll(/import \{([^}]*)\} from '\.\/modules\/([^/]+)\/[^']+\.service\.ts'/g))
    for (const name of m[1]!
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      parts.push({ name, module: m[2]! });
  return parts;
}

/** Every TypeScript source file (tests aside) under `dir`. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.includes('.test.'))
    .map((f) => path.join(dir, f));
}

describe('each port set is written once, in ports.ts', () => {
  it('finds the ports of outbreak, follow-ups, extension, training, fields and the photo sweep', () => {
    expect(portParts().map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'analysisCaseSql',
        'verdictCaseSql',
        'diagnosisFacts',
        'visitFacts',
        'sampleSourceFacts',
      ]),
    );
  });

  it('no source file beside ports.ts imports a port part from its owner (services.ts, the commands and benches import the sets)', () => {
    const parts = portParts();
    const elsewhere: string[] = [];
    for (const file of [...sources(SRC), ...sources(BENCH)]) {
      if (file === path.join(SRC, 'ports.ts')) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import \{([^}]*)\} from '[^']*modules\/([^/]+)\/[^']+\.service\.ts'/g)) {
        if (file.startsWith(path.join(SRC, 'modules', m[2]!) + path.sep)) continue;
        const names = m[1]!.split(',').map((n) => n.replace('type ', '').trim());
        for (const { name, module } of parts)
          if (module === m[2] && names.includes(name)) elsewhere.push(`${path.relative(SRC, file)}: ${name}`);
      }
    }
    expect(elsewhere).toEqual([]);
  });
});
