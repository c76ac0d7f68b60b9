import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fieldCrops, growthStages } from './field-basics.ts';
import {
  adviseField,
  compareWalks,
  FIELD_RULES_DATA,
  FIELD_RULES_VERSION,
  type GrowthStage,
  STAGE_STARTS_WEEKS,
  WALK_ENOUGH_PLANTS,
} from './field-rules.ts';

/**
 * Every version of the rules given out, with the hash of the data it rests on (rules, stages, sources)
 * and the hash of their answers over a grid of counts, stages and crops (as the rust-weather rules are
 * pinned). A change to a rule, a threshold, a comparison, a stage or a source changes one of them: give
 * it a new FIELD_RULES_VERSION and add it here.
 */
const ISSUED: Record<string, { data: string; answers: string }> = {
  '2026-11-28': {
    data: '9cf4a205c2013fb95bffeb95598873e06caa497c8c120aff957b231376a0f430',
    answers: 'd66f36c54ee36fda547023dbc058178ea14cbbcd35fbd22a1e070e8a1114cb4e',
  },
};

/** The plants looked at in the grid: short walks around each interval's edge, a full walk, more. */
const LOOKED = [1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 16, 20, 24, 25, 30, 40, 49, 50, 51, 60, 100];

/** What the rules answer over the grid: each walk's advice, and each pair of walks' comparison. */
function answersOverGrid(): string[] {
  const answers: string[] = [];
  const when: { weeks: number | null; stageSaid?: GrowthStage | null }[] = [
    ...[null, ...growthStages].map((stageSaid) => ({ weeks: null, stageSaid })),
    ...Array.from({ length: 27 }, (_, weeks) => ({ weeks })),
  ];
  for (const crop of fieldCrops)
    for (const w of when)
      for (const looked of LOOKED)
        for (let rust = 0; rust <= looked; rust++) {
          const { version: _, ...a } = adviseField({ crop, looked, rust, ...w });
          answers.push(`${crop}|${w.weeks}|${w.stageSaid}|${rust}/${looked}|${JSON.stringify(a)}`);
        }
  const counts = [5, 10, 20, 30, 50, 100].flatMap((looked) =>
    Array.from({ length: looked + 1 }, (_, rust) => ({ looked, rust })),
  );
  for (const before of counts)
    for (const after of counts)
      answers.push(`${before.rust}/${before.looked}>${after.rust}/${after.looked}|${compareWalks(before, after)}`);
  return answers;
}

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
    expect(hash).toBe(ISSUED[FIELD_RULES_VERSION]!.data);
  });

  it('is tied to what the rules answer, over every count, stage and crop of the grid', () => {
    const answers = answersOverGrid();
    expect(answers.length).toBeGreaterThan(50_000);
    const hash = createHash('sha256').update(answers.join('\n')).digest('hex');
    expect(hash, 'the rules answer otherwise: bump FIELD_RULES_VERSION and list it').toBe(
      ISSUED[FIELD_RULES_VERSION]!.answers,
    );
  });
});
