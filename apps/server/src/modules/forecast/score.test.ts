import { describe, expect, it } from 'vitest';
import { forecastScore, type Outcome, type ScoreCase, scoreCases, type WeekForecast } from './score.ts';

describe('scoreCases: a week counts when someone looked 7–21 days after it', () => {
  it('keeps the weeks with enough walkers or a confirmation in the window, and marks rust seen then', () => {
    const week = '2026-11-02'; // a Monday: the window is 2026-11-09 .. 2026-11-22
    const f = (district: string, level: WeekForecast['level'] = 'high'): WeekForecast => ({
      district,
      crop: 'maize',
      week,
      level,
      rustNear: true,
    });
    const o = (district: string, day: string, walkers: number, walkedRust = 0, confirmed = 0): Outcome => ({
      district,
      crop: 'maize',
      day,
      walkers,
      walkedRust,
      confirmed,
    });
    const cases = scoreCases(
      [f('A'), f('B'), f('C'), f('D'), f('E', 'unknown'), f('F', 'low')],
      [
        o('A', '2026-11-09', 3), // day 7, 3 walkers, no rust: a case, not observed
        o('B', '2026-11-10', 2), // 2 walkers only: nobody enough looked
        o('C', '2026-11-22', 0, 0, 1), // day 20, a confirmation: observed
        o('D', '2026-11-08', 3, 1), // day 6: too early
        o('D', '2026-11-23', 5, 1), // day 21: too late
        o('E', '2026-11-12', 4, 1), // no weather, no forecast
        o('F', '2026-11-12', 1),
        o('F', '2026-11-15', 2, 1), // 1 + 2 walkers in the window, rust seen
      ],
      3,
    );
    expect(cases).toEqual([
      { level: 'high', rustNear: true, observed: false, week },
      { level: 'high', rustNear: true, observed: true, week },
      { level: 'low', rustNear: true, observed: true, week },
    ]);
  });
});

describe('forecastScore', () => {
  it('gives the contingency scores, the Brier scores and the reliability of a table checked by hand', () => {
    const k = (level: ScoreCase['level'], rustNear: boolean, observed: boolean, week = '2026-11-02'): ScoreCase => ({
      level,
      rustNear,
      observed,
      week,
    });
    const cases = [
      k('high', true, true),
      k('high', true, true),
      k('high', true, false),
      k('high', false, true, '2026-11-09'),
      k('moderate', true, true),
      k('moderate', true, false),
      k('moderate', false, false),
      k('low', false, false),
      k('low', false, false),
      k('low', false, true, '2026-11-16'),
    ];
    const s = forecastScore(cases);
    // The table: high and observed a = 3 (cases 1, 2, 4); high not observed b = 1 (3); not high and
    // observed c = 2 (5, 10); neither d = 4 (6, 7, 8, 9).
    expect(s.table).toEqual({ a: 3, b: 1, c: 2, d: 4 });
    expect(s.cases).toBe(10);
    expect(s.weeks).toBe(3);
    // Hit rate a/(a+c) = 3/5 = 0.6; false-alarm ratio b/(a+b) = 1/4 = 0.25;
    // false-alarm rate b/(b+d) = 1/5 = 0.2; Peirce = 0.6 - 0.2 = 0.4.
    expect(s.hitRate).toBeCloseTo(0.6, 12);
    expect(s.falseAlarmRatio).toBeCloseTo(0.25, 12);
    expect(s.peirce).toBeCloseTo(0.4, 12);
    // Brier of the levels, each at its observed frequency:
    //   high: 4 cases, 3 observed, p = 0.75: 3 × 0.25² + 1 × 0.75² = 0.1875 + 0.5625 = 0.75
    //   moderate: 3 cases, 1 observed, p = 1/3: 1 × (2/3)² + 2 × (1/3)² = 4/9 + 2/9 = 2/3
    //   low: the same, 2/3
    //   (0.75 + 4/3) / 10 = 2.08333… / 10 = 0.2083333…
    expect(s.brier).toBeCloseTo(0.75 / 10 + 4 / 30, 12);
    // Rust near alone: near (cases 1, 2, 3, 5, 6): 5 cases, 3 observed, p = 0.6: 3 × 0.4² + 2 × 0.6² = 1.2;
    //   not near (4, 7, 8, 9, 10): 5 cases, 2 observed, p = 0.4: 2 × 0.6² + 3 × 0.4² = 1.2; 2.4 / 10 = 0.24.
    expect(s.brierBaseline).toBeCloseTo(0.24, 12);
    // Skill: 1 - 0.2083333 / 0.24 = 0.1319444…: the weather adds to rust near.
    expect(s.brierSkill).toBeCloseTo(1 - 0.25 / 0.288, 12);
    expect(s.reliability).toEqual([
      { level: 'low', cases: 3, observed: 1, rate: 1 / 3 },
      { level: 'moderate', cases: 3, observed: 1, rate: 1 / 3 },
      { level: 'high', cases: 4, observed: 3, rate: 0.75 },
    ]);
  });

  it('says nothing it cannot: no cases, no scores', () => {
    const s = forecastScore([]);
    expect(s).toMatchObject({ cases: 0, weeks: 0, hitRate: null, falseAlarmRatio: null, peirce: null, brier: null });
    expect(s.brierSkill).toBeNull();
  });
});
