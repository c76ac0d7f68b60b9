import { ussdMenuNumber } from '@kutu/contract';
import { walkStopsOf } from '@kutu/contract/field-rules';
import { AppError } from '../../lib/errors.ts';
import type { Data, MenuCtx } from './menu.ts';
import { tr } from './menu.ts';
import { walkAnswer } from '../fields/walks.service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Kenya and Uganda keep East Africa Time (UTC+3) all year: a planting date is a day there. */
const EAT_MS = 3 * 60 * 60 * 1000;
/** A field's name as a phone screen shows it: at most this many characters. */
const NAME_SHOWN = 20;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A field's name cut for a phone screen ("Near the big mango t.."). */
export const shortName = (name: string) =>
  name.length <= NAME_SHOWN ? name : `${name.slice(0, NAME_SHOWN - 2).trimEnd()}..`;

/**
 * The planting date a farmer said on a basic phone, as a day in East Africa: so many weeks before today, or
 * the middle of the month named (this year's, or last year's for a month still to come; never after today).
 */
export function plantingDay(now: Date, said: { weeks: number } | { month: number }): string {
  const today = now.getTime() + EAT_MS;
  if ('weeks' in said) return isoDay(today - said.weeks * 7 * DAY_MS);
  const day = new Date(today);
  const year = said.month - 1 > day.getUTCMonth() ? day.getUTCFullYear() - 1 : day.getUTCFullYear();
  return isoDay(Math.min(Date.UTC(year, said.month - 1, 15), today));
}

/** A refusal of the fields service the menu says in words; anything else is a fault and is thrown. */
const refused = (err: unknown, status: number) => err instanceof AppError && err.status === status;

/** What the fields screens change, each ending the session with what was done. */
export const fieldActions = {
  async add(c: MenuCtx, d: Data): Promise<string> {
    if (!c.user || !d.fieldName || !d.fieldCrop) return tr(c, 'ussd.failed');
    try {
      const made = await c.uses.fields.create(
        { userId: c.user.id },
        { name: d.fieldName, crop: d.fieldCrop, planted_on: d.plantedOn ?? null },
      );
      // "Field 1 is saved as field 1" says the number twice: a name of its own is told its number.
      const numbered = made.name === tr(c, 'fields.numbered', { number: made.number });
      return tr(c, numbered ? 'ussd.fields.saved' : 'ussd.fields.savedAs', {
        name: made.name,
        crop: tr(c, `fields.crop.${made.crop}`),
        number: made.number,
        code: c.code,
        menu: ussdMenuNumber('fields'),
      });
    } catch (err) {
      if (refused(err, 409)) return tr(c, 'ussd.fields.nameTaken', { name: d.fieldName, code: c.code });
      if (refused(err, 400)) return tr(c, 'ussd.fields.noDistrict', { menu: ussdMenuNumber('settings') });
      throw err;
    }
  },

  /**
   * Records the walk of the chosen field from its two counts (a planting date said on the way is saved to the
   * field first) and answers with what it rests on, the advice's first step and the comparison.
   */
  async walk(c: MenuCtx, d: Data, rust: number): Promise<string> {
    const field = c.user && d.fieldNo ? await c.uses.fields.byNumber(c.user.id, d.fieldNo) : undefined;
    if (!c.user || !field || !d.looked) return tr(c, 'ussd.fields.gone', { code: c.code });
    const who = { userId: c.user.id };
    if (d.plantedOn) await c.uses.fields.update(who, field.id, { planted_on: d.plantedOn });
    const { walk } = await c.uses.walks.record(c.user.id, field.id, walkStopsOf({ looked: d.looked, rust }), {
      channel: 'ussd',
    });
    const text = tr(c, 'ussd.walk.done', { ...walkAnswer(walk) });
    return text.charAt(0).toUpperCase() + text.slice(1);
  },
};
