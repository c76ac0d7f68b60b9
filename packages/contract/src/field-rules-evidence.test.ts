import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { growthStages } from './field-basics.ts';
import {
  adviseField,
  FIELD_RULES_DATA,
  FIELD_RULES_VERSION,
  type GrowthStage,
  STAGE_STARTS_WEEKS,
  WALK_ENOUGH_PLANTS,
} from './field-rules.ts';

/**
 * Every version of the rules given out, with the hash of the data it rests on. A change to a rule, a
 * threshold, a stage or a source changes the hash: give it a new FIELD_RULES_VERSION and add it here.
 */
const ISSUED: Record<string, string> = {
  '2026-11-28': '9cf4a205c2013fb95bffeb95598873e06caa497c8c120aff957b231376a0f430',
};

const crops = ['maize', 'beans'] as const;
const stages: (GrowthStage | null)[] = [null, ...growthStages];

describe('spray only when the counts bear it', () => {
  it('never says spray now for 1 of 1, 1 of 4 or 1 of 10 plants, and asks for a full walk first', () => {
    for (const crop of crops)
      for (const stageSaid of stages)
        for (const looked of [1, 4, 10]) {
          const a = adviseField({ crop, looked, rust: 1, weeks: null, stageSaid });
          expect(a.action, `${crop} ${stageSaid} 1 of ${looked}`).not.toBe('spray_now');
          if (stageSaid === 'seedling' && looked <= 4) expect(a.steps[0]).toBe('count_before_spray');
        }
    expect(adviseField({ crop: 'beans', looked: 10, rust: 1, weeks: 6 }).steps[0]).toBe('count_before_spray');
  });

  it('still says spray now for 14 of 50 at flowering, for both crops', () => {
    for (const crop of crops) {
      expect(adviseField({ crop, looked: 50, rust: 14, weeks: null, stageSaid: 'flowering' }).action).toBe('spray_now');
      expect(adviseField({ crop, looked: 50, rust: 14, weeks: STAGE_STARTS_WEEKS[crop].flowering }).action).toBe(
        'spray_now',
      );
    }
  });

  it('sprays a short walk whose interval lies wholly above the threshold', () => {
    // 9 of 10 beans: Wilson 0.60 to 0.98, above 10 %; 10 of 10 maize: 0.72 to 1, above 25 %.
    expect(adviseField({ crop: 'beans', looked: 10, rust: 9, weeks: 6 }).action).toBe('spray_now');
    expect(adviseField({ crop: 'maize', looked: 10, rust: 10, weeks: 6 }).action).toBe('spray_now');
    // 5 of 10 maize: 0.24 to 0.76, not wholly above 25 %: count first.
    expect(adviseField({ crop: 'maize', looked: 10, rust: 5, weeks: 6 }).steps[0]).toBe('count_before_spray');
  });

  it('is monotone in the plants with rust and never sprays at none, over every count and stage', () => {
    let combinations = 0;
    for (const crop of crops)
      for (const stageSaid of stages)
        for (let looked = 1; looked <= 150; looked++) {
          let sprayed = false;
          for (let rust = 0; rust <= looked; rust++) {
            const spray = adviseField({ crop, looked, rust, weeks: null, stageSaid }).action === 'spray_now';
            if (rust === 0) expect(spray).toBe(false);
            if (sprayed) expect(spray, `${crop} ${stageSaid} ${rust} of ${looked}`).toBe(true);
            sprayed = spray;
            combinations++;
          }
        }
    expect(combinations).toBeGreaterThan(100_000);
  });

  it('asks for a full walk only below a full walk', () => {
    const a = adviseField({ crop: 'maize', looked: WALK_ENOUGH_PLANTS, rust: 13, weeks: 6 });
    expect(a.action).toBe('spray_now');
    expect(a.steps).not.toContain('count_before_spray');
  });
});

describe('the rules version', () => {
  it('is tied to the content of the rules', () => {
    const hash = createHash('sha256').update(JSON.stringify(FIELD_RULES_DATA)).digest('hex');
    expect(Object.keys(ISSUED).at(-1)).toBe(FIELD_RULES_VERSION);
    expect(hash).toBe(ISSUED[FIELD_RULES_VERSION]);
  });
});
