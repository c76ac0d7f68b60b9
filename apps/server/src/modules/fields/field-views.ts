import type { Field, FieldCrop, GrowthStage, Walk, WalkChannel } from '@kutu/contract';
import { type FieldAction, type FieldStep, incidenceOf, stageAt, weeksSincePlanting } from '@kutu/contract/field-rules';
import type { FieldRow } from './fields.repo.ts';
import type { WalkRow } from './walks.repo.ts';

/** A stored walk as the farmer reads it: its counts, its incidence, and the advice as it was given then. */
export function walkView(row: WalkRow, crop: FieldCrop): Walk {
  return {
    id: row.id,
    field_id: row.fieldId,
    walked_at: row.walkedAt.toISOString(),
    channel: row.channel as WalkChannel,
    recorded_by_expert: row.channel === 'clinic',
    stops: row.stops,
    plants_looked: row.plantsLooked,
    plants_rust: row.plantsRust,
    incidence: incidenceOf({ looked: row.plantsLooked, rust: row.plantsRust }),
    crop,
    weeks_since_planting: row.weeksSincePlanting,
    growth_stage: (row.growthStage as GrowthStage | null) ?? null,
    stage_said: row.stageSaid,
    advice: {
      rule: row.adviceRule,
      version: row.rulesVersion,
      action: row.adviceAction as FieldAction,
      steps: row.adviceSteps as FieldStep[],
      walk_again_days: row.walkAgainDays,
      sources: row.adviceSources,
    },
    compared:
      row.comparison && row.comparedWalkedAt
        ? {
            walk_id: row.comparedWalkId ?? 0,
            walked_at: row.comparedWalkedAt.toISOString(),
            plants_looked: row.comparedLooked ?? 0,
            plants_rust: row.comparedRust ?? 0,
            outcome: row.comparison,
          }
        : null,
    sent_to_expert: row.sentToExpert,
  };
}

/** A field as the farmer reads it today: its crop's age and stage now, its latest walk and next reminder. */
export function fieldView(
  row: FieldRow,
  about: { analyses: number; remindAt: Date | null } | undefined,
  lastWalk: WalkRow | undefined,
  now: Date,
): Field {
  const weeks = row.plantedOn ? weeksSincePlanting(row.plantedOn, now) : null;
  return {
    id: row.id,
    number: row.number,
    name: row.name,
    crop: row.crop,
    size_acres: row.sizeAcres,
    district: row.district,
    planted_on: row.plantedOn,
    location: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
    created_at: row.createdAt.toISOString(),
    weeks_since_planting: weeks,
    growth_stage: weeks === null ? null : stageAt(row.crop, weeks),
    last_walk: lastWalk ? walkView(lastWalk, row.crop) : null,
    remind_at: about?.remindAt?.toISOString() ?? null,
    analyses: about?.analyses ?? 0,
    retired_at: row.retiredAt?.toISOString() ?? null,
  };
}
