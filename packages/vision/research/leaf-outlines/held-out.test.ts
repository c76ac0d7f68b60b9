import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCard } from '../../src/classifier.ts';
import { defaultDatasetDir } from '../../src/dataset.ts';
import { defaultModelDir } from '../../src/index.ts';
import { heldOutOf } from './held-out.ts';

const card = await readCard(defaultModelDir());
const rust = (name: string) => path.join(defaultDatasetDir, 'common_rust', name);

describe('the held-out photos ring figures are measured on (shown.ts)', () => {
  const heldOut = heldOutOf(card);

  it('refuses to read a photo the served model trained on, from either source', () => {
    // iBean 0001 is outside the evaluation set; every PlantDoc photo was trained on.
    expect(() => heldOut.read(rust('ibean__bean__bean_rust__0001.jpg'))).toThrow(/not held out/);
    const plantdoc = fs.readdirSync(path.dirname(rust('x'))).find((f) => f.startsWith('plantdoc__'));
    expect(plantdoc).toBeDefined();
    expect(() => heldOut.read(rust(plantdoc as string))).toThrow(/not held out/);
  });

  it('lists only the evaluation set’s photos, by source: iBean rust 47, PlantDoc none', () => {
    const ibean = heldOut.photos('common_rust', 'ibean__');
    expect(ibean).toHaveLength(47);
    expect(ibean).not.toContain(rust('ibean__bean__bean_rust__0001.jpg'));
    expect(heldOut.photos('common_rust', 'plantdoc__')).toEqual([]);
    expect(heldOut.read(ibean[0]).length).toBeGreaterThan(1000);
  });

  it('refuses a model whose card names no held-out photos', () => {
    expect(() => heldOutOf({ ...card, data: {} })).toThrow(/names no held-out photos/);
  });

  it('is the only way shown.ts reads a photo', () => {
    const source = fs.readFileSync(path.join(import.meta.dirname, 'shown.ts'), 'utf8');
    expect(source).toContain('heldOut.read(');
    expect(source).not.toMatch(/readFileSync|readdirSync|defaultDatasetDir|decodeRgb\(path/);
  });
});
