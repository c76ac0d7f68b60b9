import { describe, expect, it } from 'vitest';
import {
  adviseField,
  BEANS_SPRAY_FROM,
  compareWalks,
  fieldRuleFor,
  incidenceOf,
  MAIZE_SPRAY_FROM,
  STAGE_STARTS_WEEKS,
  stageAt,
  walkStopsOf,
  walkTotals,
  WALK_ENOUGH_PLANTS,
  WALK_MAX_PLANTS,
  weeksSincePlanting,
} from './field-rules.ts';
import { walkInput } from './fields.ts';

describe('growth stage from the planting date', () => {
  it('counts whole weeks, and none before planting', () => {
    expect(weeksSincePlanting('2026-10-01', new Date('2026-10-07T23:00:00Z'))).toBe(0);
    expect(weeksSincePlanting('2026-10-01', new Date('2026-10-08T00:00:00Z'))).toBe(1);
    expect(weeksSincePlanting('2026-10-01', new Date('2026-11-26T12:00:00Z'))).toBe(8);
    expect(weeksSincePlanting('2026-12-01', new Date('2026-11-26T12:00:00Z'))).toBeNull();
    expect(weeksSincePlanting('not a date', new Date())).toBeNull();
  });

  it('starts each stage at its week, by crop', () => {
    for (const crop of ['maize', 'beans'] as const) {
      for (const [stage, week] of Object.entries(STAGE_STARTS_WEEKS[crop])) {
        expect(stageAt(crop, week)).toBe(stage);
        if (week > 0) expect(stageAt(crop, week - 1)).not.toBe(stage);
      }
    }
    expect(stageAt('maize', 8)).toBe('flowering');
    expect(stageAt('beans', 8)).toBe('grain_filling');
    expect(stageAt('other', 8)).toBeNull();
  });
});

describe('incidence and its interval', () => {
  it('is the share of plants with rust, with a Wilson interval that narrows with more plants', () => {
    const small = incidenceOf({ looked: 10, rust: 3 })!;
    const large = incidenceOf({ looked: 100, rust: 30 })!;
    expect(small.share).toBeCloseTo(0.3);
    expect(large.share).toBeCloseTo(0.3);
    // Wilson 95 % for 3/10 is about 0.108 to 0.603; for 30/100 about 0.219 to 0.396.
    expect(small.low).toBeCloseTo(0.108, 2);
    expect(small.high).toBeCloseTo(0.603, 2);
    expect(large.low).toBeCloseTo(0.219, 2);
    expect(large.high).toBeCloseTo(0.396, 2);
  });

  it('keeps the interval inside 0..1 and has none without plants', () => {
    expect(incidenceOf({ looked: 20, rust: 0 })).toMatchObject({ share: 0, low: 0 });
    expect(incidenceOf({ looked: 20, rust: 20 })!.high).toBe(1);
    expect(incidenceOf({ looked: 0, rust: 0 })).toBeNull();
  });

  it('adds the stops up', () => {
    expect(
      walkTotals([
        { looked: 10, rust: 2 },
        { looked: 10, rust: 5 },
      ]),
    ).toEqual({ looked: 20, rust: 7 });
  });

  it('keeps a walk counted in totals as stops a walk may hold, with the same totals', () => {
    expect(walkStopsOf({ looked: 50, rust: 14 })).toEqual([{ looked: 50, rust: 14 }]);
    const stops = walkStopsOf({ looked: 250, rust: 130 });
    expect(stops).toEqual([
      { looked: 100, rust: 100 },
      { looked: 100, rust: 30 },
      { looked: 50, rust: 0 },
    ]);
    expect(walkTotals(stops)).toEqual({ looked: 250, rust: 130 });
    const full = walkStopsOf({ looked: WALK_MAX_PLANTS, rust: 1 });
    expect(walkInput.safeParse({ stops: full }).success).toBe(true);
    expect(walkInput.safeParse({ stops: walkStopsOf({ looked: 0, rust: 0 }) }).success).toBe(false);
  });
});

describe('a walk against the one before', () => {
  it('says worse or better only when the counts show it', () => {
    expect(compareWalks({ looked: 50, rust: 2 }, { looked: 50, rust: 14 })).toBe('worse');
    expect(compareWalks({ looked: 50, rust: 14 }, { looked: 50, rust: 2 })).toBe('better');
    expect(compareWalks({ looked: 50, rust: 10 }, { looked: 50, rust: 11 })).toBe('same');
    expect(compareWalks({ looked: 100, rust: 0 }, { looked: 100, rust: 1 })).toBe('same');
  });

  it('says too few plants where a change cannot be told from chance', () => {
    expect(compareWalks({ looked: 10, rust: 5 }, { looked: 10, rust: 6 })).toBe('too_few_plants');
    expect(compareWalks({ looked: 5, rust: 1 }, { looked: 5, rust: 3 })).toBe('too_few_plants');
    expect(compareWalks({ looked: 0, rust: 0 }, { looked: 50, rust: 3 })).toBe('too_few_plants');
  });
});

describe('advice from the field', () => {
  it('differs between 20 and 2 of 50 plants at flowering, for both crops', () => {
    for (const crop of ['maize', 'beans'] as const) {
      const many = adviseField({ crop, looked: 50, rust: 20, weeks: STAGE_STARTS_WEEKS[crop].flowering });
      const few = adviseField({ crop, looked: 50, rust: 2, weeks: STAGE_STARTS_WEEKS[crop].flowering });
      expect(many.rule).not.toBe(few.rule);
      expect(many.action).toBe('spray_now');
      expect(few.action).not.toBe('spray_now');
    }
  });

  it('sprays beans once the interval clears the threshold, says not yet near it, picks leaves below it', () => {
    const looked = 100;
    const at = (rust: number) => fieldRuleFor({ crop: 'beans', looked, rust, weeks: 6 }).id;
    // 16 of 100: 10.1 % to 24 %, over 10 %; 15 of 100: 9.3 % to 23 %, not yet.
    expect(at(16)).toBe('beans.spray');
    expect(at(15)).toBe('beans.near');
    expect(at(Math.round(BEANS_SPRAY_FROM * looked))).toBe('beans.near');
    expect(at(Math.round(BEANS_SPRAY_FROM * looked) - 1)).toBe('beans.low');
  });

  it('sprays maize only once the interval clears its threshold, and before grain filling', () => {
    const looked = 100;
    const rust = Math.round(MAIZE_SPRAY_FROM * looked);
    // 34 of 100: 25.4 % to 44 %, over 25 %; 25 of 100 reaches it only as a share.
    expect(fieldRuleFor({ crop: 'maize', looked, rust: 34, weeks: 6 }).id).toBe('maize.spray');
    expect(fieldRuleFor({ crop: 'maize', looked, rust: 33, weeks: 6 }).id).toBe('maize.near');
    expect(fieldRuleFor({ crop: 'maize', looked, rust, weeks: 6 }).id).toBe('maize.near');
    expect(fieldRuleFor({ crop: 'maize', looked, rust: rust - 1, weeks: 6 }).id).toBe('maize.watch');
    expect(fieldRuleFor({ crop: 'maize', looked, rust: 80, weeks: STAGE_STARTS_WEEKS.maize.grain_filling }).id).toBe(
      'maize.late',
    );
    expect(fieldRuleFor({ crop: 'beans', looked, rust: 80, weeks: STAGE_STARTS_WEEKS.beans.mature }).id).toBe(
      'beans.late',
    );
  });

  it('reads a walk of fewer than ten plants as ten, the rest healthy', () => {
    // 3 of 3 beans read as 3 of 10 (10.8 % to 60 %) sprays, as 3 of 10 does; 2 of 2 (5.7 % read as ten) does not.
    expect(fieldRuleFor({ crop: 'beans', looked: 3, rust: 3, weeks: 3 }).id).toBe('beans.spray');
    expect(fieldRuleFor({ crop: 'beans', looked: 10, rust: 3, weeks: 3 }).id).toBe('beans.spray');
    expect(fieldRuleFor({ crop: 'beans', looked: 2, rust: 2, weeks: 3 }).id).toBe('beans.count');
    // Maize needs 6 of up to 10 (31 % to 83 %); 9 of 9 sprays as 9 of 10 does.
    expect(fieldRuleFor({ crop: 'maize', looked: 5, rust: 5, weeks: 6 }).id).toBe('maize.count');
    expect(fieldRuleFor({ crop: 'maize', looked: 9, rust: 9, weeks: 6 }).id).toBe('maize.spray');
    expect(fieldRuleFor({ crop: 'maize', looked: 10, rust: 9, weeks: 6 }).id).toBe('maize.spray');
    expect(adviseField({ crop: 'maize', looked: 9, rust: 9, weeks: 6 }).steps).toContain('count_more_plants');
  });

  it('tells beans with filling or mature pods not to spray', () => {
    for (const stageSaid of ['grain_filling', 'mature'] as const) {
      const a = adviseField({ crop: 'beans', looked: 50, rust: 40, weeks: null, stageSaid });
      expect(a.action).toBe('resistant_next_season');
      expect(a.steps).not.toContain('spray_beans');
    }
    expect(
      fieldRuleFor({ crop: 'beans', looked: 50, rust: 40, weeks: STAGE_STARTS_WEEKS.beans.grain_filling }).id,
    ).toBe('beans.late');
  });

  it('lets a stage said at the walk win over the calendar', () => {
    expect(fieldRuleFor({ crop: 'maize', looked: 50, rust: 30, weeks: 5, stageSaid: 'mature' }).id).toBe('maize.late');
    expect(fieldRuleFor({ crop: 'maize', looked: 50, rust: 30, weeks: null, stageSaid: 'vegetative' }).id).toBe(
      'maize.spray',
    );
  });

  it('asks for another walk when no rust was seen, and an expert for a crop without rules', () => {
    expect(adviseField({ crop: 'maize', looked: 50, rust: 0, weeks: 6 })).toMatchObject({
      rule: 'none',
      action: 'walk_again',
      walkAgainDays: 7,
    });
    expect(adviseField({ crop: 'other', looked: 50, rust: 4, weeks: null }).action).toBe('ask_expert');
  });

  it('asks for more plants after a short walk, and for the planting date when the stage is unknown', () => {
    const short = adviseField({ crop: 'beans', looked: WALK_ENOUGH_PLANTS - 1, rust: 10, weeks: 6 });
    expect(short.steps).toContain('count_more_plants');
    expect(adviseField({ crop: 'beans', looked: 50, rust: 10, weeks: 6 }).steps).not.toContain('count_more_plants');
    expect(adviseField({ crop: 'beans', looked: 50, rust: 10, weeks: null }).steps).toContain('add_planting_date');
  });

  it('names its sources and version', () => {
    const a = adviseField({ crop: 'beans', looked: 50, rust: 14, weeks: 6 });
    expect(a.sources.length).toBeGreaterThan(0);
    for (const s of a.sources) expect(s.url).toMatch(/^https?:\/\//);
    expect(a.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(a.incidence?.share).toBeCloseTo(0.28);
  });
});

describe('a walk as sent', () => {
  it('refuses more plants with rust than looked at, and a walk of no plants', () => {
    expect(walkInput.safeParse({ stops: [{ looked: 10, rust: 11 }] }).success).toBe(false);
    expect(walkInput.safeParse({ stops: [{ looked: 0, rust: 0 }] }).success).toBe(false);
    expect(walkInput.safeParse({ stops: [] }).success).toBe(false);
    expect(walkInput.safeParse({ stops: [{ looked: 10, rust: 3 }] }).success).toBe(true);
  });
});
