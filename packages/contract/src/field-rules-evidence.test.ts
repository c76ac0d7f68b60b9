import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fieldCrops, growthStages } from './field-basics.ts';
import {
  adviseField,
  BEANS_SPRAY_FROM,
  compareWalks,
  FIELD_RULES_DATA,
  FIELD_RULES_VERSION,
  type GrowthStage,
  MAIZE_SPRAY_FROM,
  STAGE_STARTS_WEEKS,
  WALK_ENOUGH_PLANTS,
} from './field-rules.ts';
import { wilsonInterval } from './stats.ts';

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
  // A spray from the interval's lower end at every number of plants (docs/decisions/0135): 954 of the
  // grid's 54,549 answers changed, all in their action. 640 full walks whose share reached the threshold
  // but whose interval did not (13 to 18 of 50 maize, 5 to 9 of 50 beans) no longer spray; 314 walks of
  // fewer than ten plants whose interval, read as ten, clears it (3 of 3 beans, 6 of 6 maize) now do.
  '2026-11-29': {
    data: '5e7f9436735622909e76e0644d0e611cbc2ce3ef0e7f64a33983f3ef5eca21c1',
    answers: '3800693097f5a5c2754f0f19ead2a9393481a7b08cc37f45231ff7ede0b3231e',
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

  it('says spray now at flowering from 10 of 50 beans and 19 of 50 maize, not one plant fewer', () => {
    for (const [crop, rust] of [
      ['beans', 10],
      ['maize', 19],
    ] as const) {
      const at = (r: number, w: { weeks: number | null; stageSaid?: GrowthStage }) =>
        adviseField({ crop, looked: 50, rust: r, ...w }).action;
      for (const w of [
        { weeks: null, stageSaid: 'flowering' as const },
        { weeks: STAGE_STARTS_WEEKS[crop].flowering },
      ]) {
        expect(at(rust, w), `${crop} ${rust} of 50`).toBe('spray_now');
        expect(at(rust - 1, w), `${crop} ${rust - 1} of 50`).not.toBe('spray_now');
      }
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

  it('asks for a full walk only below a full walk, and after one says not to spray yet', () => {
    const a = adviseField({ crop: 'maize', looked: WALK_ENOUGH_PLANTS, rust: 13, weeks: 6 });
    expect(a.action).toBe('walk_again');
    expect(a.steps).toEqual(['spray_not_yet', 'walk_again_soon']);
    const b = adviseField({ crop: 'beans', looked: 100, rust: 12, weeks: 3 });
    expect(b.steps).toEqual(['spray_not_yet', 'remove_leaves', 'walk_again']);
  });
});

describe('advice that does not flip on one plant', () => {
  const threshold = { maize: MAIZE_SPRAY_FROM, beans: BEANS_SPRAY_FROM } as const;

  it('gives 13 of 49 and 13 of 50 maize the same action, at every stage', () => {
    for (const stageSaid of stages) {
      const short = adviseField({ crop: 'maize', looked: 49, rust: 13, weeks: null, stageSaid });
      const full = adviseField({ crop: 'maize', looked: 50, rust: 13, weeks: null, stageSaid });
      expect(full.action, `${stageSaid}`).toBe(short.action);
      expect(full.action).not.toBe('spray_now');
    }
  });

  it('never sprays below the threshold, is monotone in rust, and one more healthy plant never brings a spray', () => {
    // Order of the answers, from least to most: below the threshold, near it, spray.
    const level = (rule: string) => (rule.endsWith('.spray') ? 2 : /\.(count|near)$/.test(rule) ? 1 : 0);
    const wrong: string[] = [];
    let checked = 0;
    for (const crop of crops)
      for (const stageSaid of stages) {
        // Each answer once, for 1 to 101 plants: levels[looked][rust] (101 for "one more plant").
        const levels = Array.from({ length: 102 }, (_, looked) =>
          Array.from({ length: looked + 1 }, (_, rust) =>
            looked === 0 ? 0 : level(adviseField({ crop, looked, rust, weeks: null, stageSaid }).rule),
          ),
        );
        for (let looked = 1; looked <= 100; looked++)
          for (let rust = 0; rust <= looked; rust++) {
            const at = levels[looked]![rust]!;
            const where = `${crop} ${stageSaid} ${rust} of ${looked}`;
            if (at === 2 && wilsonInterval(rust, looked)!.low < threshold[crop]) wrong.push(`${where}: sprays`);
            if (rust < looked && levels[looked]![rust + 1]! < at) wrong.push(`${where}: less with one more rusty`);
            if (levels[looked + 1]![rust]! > at) wrong.push(`${where}: more with one more healthy plant`);
            if (at === 2 && levels[looked + 1]![rust + 1] !== 2) wrong.push(`${where}: no spray with one more rusty`);
            checked++;
          }
      }
    expect(wrong).toEqual([]);
    expect(checked).toBe(2 * stages.length * 5150);
  });

  it('sprays at a share the interval clears once enough plants show it', () => {
    // 40 % of maize plants: 4 of 10 cannot show it is over 25 %, 20 of 50 can.
    expect(adviseField({ crop: 'maize', looked: 10, rust: 4, weeks: 6 }).action).not.toBe('spray_now');
    expect(adviseField({ crop: 'maize', looked: 50, rust: 20, weeks: 6 }).action).toBe('spray_now');
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
