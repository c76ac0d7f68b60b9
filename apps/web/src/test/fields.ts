import type { Field, Walk } from '@kutu/contract';
import { adviseField, FIELD_RULES_VERSION } from '@kutu/contract/field-rules';

/** A field as the server sends it: maize planted eight weeks before 2026-11-27, not walked yet. */
export function testField(over: Partial<Field> = {}): Field {
  return {
    id: 3,
    number: 1,
    name: 'Near the river',
    crop: 'maize',
    size_acres: 1.5,
    district: 'UG-102',
    planted_on: '2026-10-02',
    location: null,
    created_at: '2026-10-02T08:00:00.000Z',
    weeks_since_planting: 8,
    growth_stage: 'flowering',
    last_walk: null,
    remind_at: null,
    analyses: 0,
    ...over,
  };
}

/** A walk of `field` with these counts (one stop), its advice from the contract's rules, as the server sends it. */
export function testWalk(
  counts: { looked: number; rust: number },
  over: Partial<Walk> = {},
  field: Field = testField(),
): Walk {
  const advice = adviseField({ ...counts, crop: field.crop, weeks: field.weeks_since_planting });
  return {
    id: 11,
    field_id: field.id,
    walked_at: '2026-11-27T09:00:00.000Z',
    channel: 'web',
    recorded_by_expert: false,
    stops: [counts],
    plants_looked: counts.looked,
    plants_rust: counts.rust,
    incidence: advice.incidence,
    crop: field.crop,
    weeks_since_planting: field.weeks_since_planting,
    growth_stage: advice.stage,
    stage_said: false,
    advice: {
      rule: advice.rule,
      version: FIELD_RULES_VERSION,
      action: advice.action,
      steps: advice.steps,
      walk_again_days: advice.walkAgainDays,
      sources: advice.sources,
    },
    compared: null,
    ...over,
  };
}

export const page = <T>(results: T[], count = results.length) => ({ count, next: null, previous: null, results });
