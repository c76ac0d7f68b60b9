import type { TFunction } from 'i18next';
import type { Field, Walk } from '@kutu/contract';
import { formatDate, formatPercent } from '../../../lib/format.ts';

/** A planting date (`YYYY-MM-DD`, the field's own calendar) as the reader writes dates. */
export const plantedDate = (day: string) => formatDate(`${day}T12:00:00Z`);

/** A share of plants, whole percent: "28 %". */
export const share = (value: number) => formatPercent(value, 0);

/**
 * The crop and its age in a sentence: "maize at 8 weeks", "beans at flowering (as you said)", "maize,
 * planting date not known", or the crop alone for another crop (Kutu has no calendar for it).
 */
export function cropAge(
  t: TFunction,
  at: Pick<Walk, 'crop' | 'weeks_since_planting' | 'growth_stage'> & { stage_said?: boolean },
): string {
  const crop = t(`fields.cropWord.${at.crop}`);
  if (at.stage_said && at.growth_stage)
    return t('fields.age.said', { crop, stage: t(`fields.stage.${at.growth_stage}`) });
  if (at.weeks_since_planting !== null) return t('fields.age.weeks', { crop, count: at.weeks_since_planting });
  return at.crop === 'other' ? crop : t('fields.age.unknown', { crop });
}

/** A field's age and stage on its own line: "8 weeks after planting (flowering)", or that the date is missing. */
export function fieldAge(t: TFunction, field: Field): string {
  if (field.weeks_since_planting === null) return t('fields.list.noPlanting');
  const weeks = t('fields.list.weeks', { count: field.weeks_since_planting });
  return field.growth_stage ? `${weeks} · ${t(`fields.stage.${field.growth_stage}`)}` : weeks;
}

/** "rust on 14 of 50 plants" */
export const rustCount = (t: TFunction, walk: Pick<Walk, 'plants_rust' | 'plants_looked'>) =>
  t('fields.count', { rust: walk.plants_rust, looked: walk.plants_looked, count: walk.plants_looked });
