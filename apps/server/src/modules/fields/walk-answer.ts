import { EAST_AFRICA_TIME_ZONE, type Walk } from '@kutu/contract';
import { type Message, message } from '../../i18n/i18n.ts';

/** A day as short as a phone screen or an SMS needs, in East Africa Time: 3/12. */
const dayMonth = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'numeric',
  timeZone: EAST_AFRICA_TIME_ZONE,
});

/** The parts of a walk's answer on a basic phone, rendered in the reader's language. */
export interface WalkAnswer {
  /** What the answer rests on: "rust on 14 of 50 plants" and "maize at 8 weeks". */
  counts: Message;
  age: Message;
  /** The advice's first step, short. */
  step: Message;
  /** Against the field's walk before: "Worse than on 3/12 (5 of 50)." or "First walk of this field." */
  compared: Message;
}

/** The crop and its age as the walk's advice used them: the stage said at the walk, else the weeks since planting. */
function ageOf(walk: Walk, sms: boolean): Message {
  const crop = message(`fields.crop.${walk.crop}`);
  if (walk.crop === 'other') return message('fields.age.other', { crop });
  if (walk.stage_said && walk.growth_stage)
    return message('fields.age.stage', { crop, stage: message(`fields.stage.${walk.growth_stage}`) });
  if (walk.weeks_since_planting === null)
    return message(sms ? 'fields.age.unknownSms' : 'fields.age.unknown', { crop });
  return message('fields.age.weeks', { crop, count: walk.weeks_since_planting });
}

/** The comparison with the walk before; on a screen with the counts it had ("Worse than on 3/12 (5 of 50)."). */
function comparedOf(walk: Walk, sms: boolean): Message {
  if (!walk.compared) return message('fields.compared.first');
  const date = dayMonth.format(new Date(walk.compared.walked_at));
  if (sms) return message(`fields.comparedSms.${walk.compared.outcome}`, { date });
  const before = message('followUp.counts', { rust: walk.compared.plants_rust, looked: walk.compared.plants_looked });
  return message(`fields.compared.${walk.compared.outcome}`, { date, before });
}

/**
 * A walk's answer as the USSD menu, an SMS reply and a plant clinic's result SMS give it (docs/decisions/0078):
 * the counts and the crop's age it rests on, the first step of its advice, and the comparison with the walk
 * before. An SMS (`sms`) says the comparison without the earlier counts, so the answer fits one message.
 */
export function walkAnswer(walk: Walk, { sms = false } = {}): WalkAnswer {
  const compared = comparedOf(walk, sms);
  return {
    counts: message('fields.counts', { rust: walk.plants_rust, looked: walk.plants_looked }),
    age: ageOf(walk, sms),
    step: message(`fields.step.${walk.advice.steps[0] ?? 'walk_again'}`),
    compared,
  };
}
