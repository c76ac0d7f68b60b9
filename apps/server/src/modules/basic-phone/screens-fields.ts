import { USSD_SCREEN_MAX, ussdMenuNumber, WALK_MAX_PLANTS } from '@kutu/contract';
import { fieldActions, plantingDay, shortName } from './field-actions.ts';
import {
  badNumber,
  choice,
  type Data,
  type MenuCtx,
  type Next,
  type PhoneField,
  type Screen,
  type ScreenId,
  tr,
} from './menu.ts';
import { PICK_PAGE } from './screens-guest.ts';

/**
 * "More" and "Add a field" on the list of fields: 98 and 99 (as East African menus number "more"), or the
 * next lower numbers no field of the farmer has, since a field is chosen by its own number (the one SMS use).
 */
export function listOptions(rows: Pick<PhoneField, 'number'>[]): { add: string; more: string } {
  const taken = new Set(rows.map((r) => r.number));
  const free: number[] = [];
  for (let n = 99; free.length < 2; n--) if (!taken.has(n)) free.push(n);
  return { add: String(free[0]), more: String(free[1]) };
}

const line = (c: MenuCtx, f: PhoneField) =>
  tr(c, 'ussd.fields.line', { number: f.number, name: shortName(f.name), crop: tr(c, `fields.crop.${f.crop}`) });

/**
 * The farmer's fields in pages as the district pick pages its names (PICK_PAGE at most), fewer where long
 * names would not fit the screen with its heading, "More", "Add a field", a hint and the footer.
 */
export function fieldPages(c: MenuCtx, rows: PhoneField[]): PhoneField[][] {
  const fixed = [
    tr(c, 'ussd.hint.number'),
    tr(c, 'ussd.fields.list', { page: 99, pages: 99 }),
    tr(c, 'ussd.more', { n: 99 }),
    tr(c, 'ussd.fields.add', { n: 99 }),
    tr(c, 'ussd.footer'),
  ].join('\n').length;
  const pages: PhoneField[][] = [];
  let page: PhoneField[] = [];
  let used = fixed;
  for (const f of rows) {
    const size = line(c, f).length + 1;
    if (page.length > 0 && (page.length >= PICK_PAGE || used + size > USSD_SCREEN_MAX)) {
      pages.push(page);
      page = [];
      used = fixed;
    }
    page.push(f);
    used += size;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/** A whole number typed on the keypad (no sign, no separators), or null. */
function count(input: string, min: number, max: number): number | null {
  if (!/^\d{1,4}$/.test(input)) return null;
  const n = Number(input);
  return n >= min && n <= max ? n : null;
}

const listFor = async (c: MenuCtx) => (c.user ? c.uses.fields.listFor(c.user.id) : []);
const fieldOf = async (c: MenuCtx, d: Data) =>
  c.user && d.fieldNo ? c.uses.fields.byNumber(c.user.id, d.fieldNo) : undefined;

/** After the planting date: a new field is saved; a walked field goes on to its counts. */
function planted(c: MenuCtx, d: Data, on: string | null): Next {
  if (d.plantedFor === 'walk') return { to: 'walkLooked', data: { plantedOn: on } };
  return { act: () => fieldActions.add(c, { ...d, plantedOn: on }) };
}

/**
 * A farmer's fields on a basic phone (docs/decisions/0078): the list by number, a new field (a name or
 * "Field 3", the crop, the planting date from weeks or a month; the district is the account's), and a walk
 * counted in two numbers (plants looked at, plants with rust), answered with the advice.
 */
export const fieldScreens: Pick<
  Record<ScreenId, Screen>,
  'fields' | 'fieldName' | 'fieldCrop' | 'planted' | 'plantedWeeks' | 'plantedMonth' | 'walkLooked' | 'walkRust'
> = {
  fields: {
    async show(c, d) {
      const rows = await listFor(c);
      const { add, more } = listOptions(rows);
      if (rows.length === 0) return { text: tr(c, 'ussd.fields.none', { n: add }) };
      const pages = fieldPages(c, rows);
      const page = Math.min(d.page ?? 1, pages.length);
      const lines = [
        tr(c, 'ussd.fields.list', { page, pages: pages.length }),
        ...pages[page - 1].map((f) => line(c, f)),
        ...(page < pages.length ? [tr(c, 'ussd.more', { n: more })] : []),
        tr(c, 'ussd.fields.add', { n: add }),
      ];
      return { text: lines.join('\n') };
    },
    async answer(input, c, d) {
      const rows = await listFor(c);
      const { add, more } = listOptions(rows);
      if (input === add) {
        if (!c.user?.district) return { end: tr(c, 'ussd.fields.noDistrict', { menu: ussdMenuNumber('settings') }) };
        return { to: 'fieldName' };
      }
      const page = d.page ?? 1;
      if (input === more && page < fieldPages(c, rows).length) return { to: 'fields', data: { page: page + 1 } };
      // Any of the farmer's fields by its number, on this page or another.
      const field = /^\d{1,4}$/.test(input) ? rows.find((f) => f.number === Number(input)) : undefined;
      if (!field) return badNumber;
      const data = { fieldNo: field.number, fieldName: field.name, plantedOn: undefined };
      if (!field.plantedOn && field.crop !== 'other') return { to: 'planted', data: { ...data, plantedFor: 'walk' } };
      return { to: 'walkLooked', data };
    },
  },
  fieldName: {
    async show(c) {
      const number = c.user ? await c.uses.fields.nextNumber(c.user.id) : 1;
      return { text: tr(c, 'ussd.fields.name', { name: tr(c, 'fields.numbered', { number }) }) };
    },
    async answer(input, c) {
      if (input === '1') {
        const number = c.user ? await c.uses.fields.nextNumber(c.user.id) : 1;
        return { to: 'fieldCrop', data: { fieldName: tr(c, 'fields.numbered', { number }) } };
      }
      const name = input.replace(/\s+/g, ' ');
      if (!/^[\p{L}\p{N}][\p{L}\p{N} .'-]{1,39}$/u.test(name)) return { hint: 'ussd.hint.fieldName' };
      return { to: 'fieldCrop', data: { fieldName: name } };
    },
  },
  fieldCrop: {
    show: (c, d) => ({ text: tr(c, 'ussd.fields.crop', { name: d.fieldName ?? '' }) }),
    answer: (input) => {
      const crop = (['maize', 'beans', 'other'] as const)[(choice(input, 3) ?? 0) - 1];
      return crop ? { to: 'planted', data: { fieldCrop: crop, plantedFor: 'add' } } : badNumber;
    },
  },
  planted: {
    show: (c, d) => ({ text: tr(c, 'ussd.fields.planted', { name: shortName(d.fieldName ?? '') }) }),
    answer: (input, c, d) => {
      const k = choice(input, 3);
      if (k === 1) return { to: 'plantedWeeks' };
      if (k === 2) return { to: 'plantedMonth' };
      return k === 3 ? planted(c, d, null) : badNumber;
    },
  },
  plantedWeeks: {
    show: (c, d) => ({ text: tr(c, 'ussd.fields.weeks', { name: shortName(d.fieldName ?? '') }) }),
    answer: (input, c, d) => {
      const weeks = count(input, 1, 52);
      return weeks ? planted(c, d, plantingDay(c.now, { weeks })) : { hint: 'ussd.hint.weeks' };
    },
  },
  plantedMonth: {
    show: (c, d) => ({ text: tr(c, 'ussd.fields.month', { name: shortName(d.fieldName ?? '') }) }),
    answer: (input, c, d) => {
      const month = count(input, 1, 12);
      return month ? planted(c, d, plantingDay(c.now, { month })) : { hint: 'ussd.hint.month' };
    },
  },
  walkLooked: {
    async show(c, d) {
      const field = await fieldOf(c, d);
      if (!field) return { text: tr(c, 'ussd.fields.gone', { code: c.code }) };
      return { text: tr(c, 'ussd.walk.looked', { name: shortName(field.name), max: WALK_MAX_PLANTS }) };
    },
    answer: (input) => {
      const looked = count(input, 1, WALK_MAX_PLANTS);
      return looked
        ? { to: 'walkRust', data: { looked } }
        : { hint: 'ussd.hint.looked', params: { max: WALK_MAX_PLANTS } };
    },
  },
  // "0" is the answer of a field without rust here: the screen offers "00 Home" and no "0 Back".
  walkRust: {
    takesZero: true,
    show: (c, d) => ({ text: tr(c, 'ussd.walk.rust', { looked: d.looked ?? 0 }) }),
    answer: (input, c, d) => {
      const looked = d.looked ?? 0;
      const rust = count(input, 0, looked);
      if (rust === null) return { hint: 'ussd.hint.rust', params: { max: looked } };
      return { act: () => fieldActions.walk(c, d, rust) };
    },
  },
};
