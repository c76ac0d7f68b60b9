import {
  type AnalysisCrop,
  DISTRICT_SETTLE_DAYS,
  districtByCode,
  type Field,
  type fieldInput,
  type FieldList,
  type fieldPatch,
  type FieldRef,
  type PageQuery,
  PLANTED_MAX_DAYS_AGO,
  profileCrop,
} from '@kutu/contract';
import { pointInDistrict } from '@kutu/contract/boundaries';
import type { z } from 'zod';
import type { ModuleDeps } from '../../deps.ts';
import { t } from '../../i18n/i18n.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { pageWindow, toPage } from '../../lib/pagination.ts';
import { fieldView } from './field-views.ts';
import { createFieldsRepo, type FieldChange, type FieldPhotos, type FieldRow } from './fields.repo.ts';
import { createWalksRepo } from './walks.repo.ts';

/** A field's name and a walk's counts as other modules' queries join them (a clinic visit's records). */
export { fieldFacts, fieldNameFacts, hasLiveFieldSql, liveFieldFacts, walkFacts } from './facts.repo.ts';
/** A field's photos as this module's queries ask about them: the analysis module's `fieldPhotoSql`, handed in. */
export type { FieldPhotos } from './fields.repo.ts';

type Who = { userId: number };
type FieldInput = z.output<typeof fieldInput>;
type FieldPatch = z.output<typeof fieldPatch>;

const DAY_MS = 24 * 60 * 60 * 1000;
/** Kenya and Uganda keep East Africa Time (UTC+3) all year: a planting date is a day there. */
const EAT_MS = 3 * 60 * 60 * 1000;
/** A basic phone lists at most this many fields (a farmer's fields fit on one or two screens). */
export const FIELDS_LISTED = 50;
/** "Maize field 2", "Maize field 3", …: tried in turn when a farmer already named a field as Kutu would. */
const DEFAULT_NAME_TRIES = 20;

/** Whether a field's district is the farmer's own or a neighbour of it (docs/decisions/0105). */
export function nearFarmer(farmerDistrict: string | null | undefined, fieldDistrict: string | null): boolean {
  if (!farmerDistrict || !fieldDistrict) return fieldDistrict === null;
  return (
    fieldDistrict === farmerDistrict || (districtByCode(farmerDistrict)?.neighbours.includes(fieldDistrict) ?? false)
  );
}

/** Today's date in East Africa (YYYY-MM-DD). */
const today = (now: Date) => new Date(now.getTime() + EAT_MS).toISOString().slice(0, 10);

/**
 * A farmer's fields (docs/decisions/0078): made, changed and retired by their owner; the field a photo goes
 * to; the list a basic phone numbers. Another farmer's field reads as missing.
 */
export function createFieldsService(deps: Pick<ModuleDeps, 'db' | 'clock'>, photos: FieldPhotos) {
  const repo = createFieldsRepo(deps.db, photos);
  const walks = createWalksRepo(deps.db, photos);

  /** The caller's field, live or retired; another's or a missing one is 404. */
  async function own(who: Who, id: number): Promise<FieldRow> {
    const row = await repo.find(id);
    if (!row || row.userId !== who.userId) throw notFound('errors.fields.notFound');
    return row;
  }

  /** The caller's live field; a retired one is refused as `retired` (409 on its own routes). */
  async function ownLive(who: Who, id: number): Promise<FieldRow> {
    const row = await own(who, id);
    if (row.retiredAt) throw conflict('errors.fields.retired');
    return row;
  }

  function checkPlanted(plantedOn: string | null | undefined) {
    if (!plantedOn) return;
    const now = deps.clock.now();
    if (plantedOn > today(now))
      throw badRequest('errors.fields.plantedFuture', { planted_on: 'errors.fields.plantedFuture' });
    if (plantedOn < today(new Date(now.getTime() - PLANTED_MAX_DAYS_AGO * DAY_MS))) {
      const text = { key: 'errors.fields.plantedTooOld', params: { days: PLANTED_MAX_DAYS_AGO } } as const;
      throw badRequest(text, { planted_on: text });
    }
  }

  /**
   * A field's district is the farmer's own or a neighbour of it, unless the field's map point lies inside the
   * district it names (docs/decisions/0105): one farmer may not put counts on a district far from them.
   */
  function checkDistrict(
    farmerDistrict: string | null | undefined,
    district: string | null,
    point: { lat: number | null; lng: number | null },
  ) {
    if (nearFarmer(farmerDistrict, district) || !district) return;
    if (point.lat !== null && point.lng !== null && pointInDistrict(district, { lat: point.lat, lng: point.lng }))
      return;
    const why = farmerDistrict ? 'errors.fields.districtFar' : 'errors.fields.ownDistrictFirst';
    throw badRequest(why, { district: why });
  }

  const nameTaken = () => conflict('errors.fields.nameTaken', { name: 'errors.fields.nameTaken' });

  async function views(rows: FieldRow[]): Promise<Field[]> {
    const ids = rows.map((r) => r.id);
    const [about, latest] = await Promise.all([repo.about(ids), walks.latestOf(ids)]);
    const now = deps.clock.now();
    return rows.map((r) => fieldView(r, about.get(r.id), latest.get(r.id), now));
  }

  /**
   * The farmer's latest live field of the crop (no crop: `other`), made when there is none: named in the
   * farmer's language as the migration named them ("Maize field", "Shamba la mahindi", …; "Maize field 2"
   * when a field of another crop has that name), in the farmer's district. Two photos at once make one.
   */
  async function defaultFor(userId: number, crop: AnalysisCrop | null): Promise<FieldRow> {
    const kind = crop ?? 'other';
    const account = await repo.account(userId);
    const base = t(account?.language ?? 'en', `fields.defaultName.${kind}`);
    for (let i = 1; i <= DEFAULT_NAME_TRIES; i++) {
      const found = await repo.latestLive(userId, kind);
      if (found) return found;
      const now = deps.clock.now();
      const made = await repo.insert({
        userId,
        name: i === 1 ? base : `${base} ${i}`,
        crop: kind,
        district: account?.district ?? null,
        createdAt: now,
        updatedAt: now,
      });
      if (made !== 'name_taken') return made;
    }
    throw new Error(`No free name for a ${kind} field of user ${userId}`);
  }

  return {
    own,
    ownLive,
    defaultFor,

    /**
     * Whether the field's district is its farmer's own or a neighbour (a far field's walks wait: decision 0105).
     * A district the farmer changed counts only DISTRICT_SETTLE_DAYS after the change; until then the one they
     * had does (decision 0127), so changing the profile does not unhold a far field.
     */
    async nearItsFarmer(field: Pick<FieldRow, 'userId' | 'district'>): Promise<boolean> {
      const account = await repo.account(field.userId);
      const settledBy = deps.clock.now().getTime() - DISTRICT_SETTLE_DAYS * 86_400_000;
      const unsettled = account?.districtChangedAt && account.districtChangedAt.getTime() > settledBy;
      return nearFarmer(unsettled ? account.districtBefore : account?.district, field.district);
    },

    /** A field as a result names it. */
    ref: (row: Pick<FieldRow, 'id' | 'name'>): FieldRef => ({ id: row.id, name: row.name }),

    /** The farmer's live fields by number, as a basic phone lists them ("1. Field A (maize)"). */
    listFor: (userId: number): Promise<FieldRow[]> => repo.liveByNumber(userId, FIELDS_LISTED),

    /** The number the farmer's next field will get ("Field 3" names it so on a basic phone). */
    nextNumber: (userId: number): Promise<number> => repo.nextNumber(userId),

    /** The farmer's live field of that number (a basic phone's choice); undefined when none. */
    byNumber: (userId: number, number: number): Promise<FieldRow | undefined> => repo.liveNumbered(userId, number),

    /**
     * The field a new photo goes to, and the crop it is analysed as (docs/decisions/0078):
     * - `fieldId`: the caller's live field (404 for another's, 400 for a retired one); a crop said that is not
     *   the field's is refused, none said is the field's; a follow-up must be of the same field.
     * - a follow-up (`followUp`, the checked diagnosis it follows) without `fieldId`: that diagnosis's field,
     *   of the same crop (none said: the diagnosis's).
     * - neither: the farmer's latest live field of the crop (none said: the profile's, `profileCrop`), made
     *   when there is none.
     */
    async forUpload(
      userId: number,
      opts: { fieldId?: number; crop?: AnalysisCrop; followUp?: { fieldId: number | null; crop: AnalysisCrop | null } },
    ): Promise<{ field: FieldRow; crop: AnalysisCrop | null }> {
      const { fieldId, crop, followUp } = opts;
      if (fieldId !== undefined) {
        const field = await own({ userId }, fieldId);
        if (field.retiredAt) throw badRequest('errors.fields.retired', { field_id: 'errors.fields.retired' });
        if (followUp && followUp.fieldId !== field.id)
          throw badRequest('errors.analysis.followUpOtherField', {
            follow_up_of: 'errors.analysis.followUpOtherField',
          });
        if (crop && crop !== field.crop)
          throw badRequest('errors.analysis.cropNotField', { crop: 'errors.analysis.cropNotField' });
        return { field, crop: crop ?? field.crop };
      }
      if (followUp) {
        const said = crop ?? followUp.crop;
        const field = followUp.fieldId === null ? undefined : await repo.find(followUp.fieldId);
        const sameCrop = field
          ? said === field.crop || (said === null && field.crop === 'other')
          : said === followUp.crop;
        if (!sameCrop)
          throw badRequest('errors.analysis.followUpOtherCrop', { follow_up_of: 'errors.analysis.followUpOtherCrop' });
        if (field && !field.retiredAt) return { field, crop: said };
        return { field: await defaultFor(userId, said), crop: said };
      }
      // No crop said and no field: the crop of the farmer's profile, as the web app's upload starts on it.
      const said = crop ?? profileCrop((await repo.account(userId))?.cropTypes ?? undefined);
      return { field: await defaultFor(userId, said), crop: said };
    },

    async create(who: Who, input: FieldInput): Promise<Field> {
      checkPlanted(input.planted_on);
      const account = await repo.account(who.userId);
      const district = input.district ?? account?.district ?? null;
      if (!district) throw badRequest('errors.fields.noDistrict', { district: 'errors.fields.noDistrict' });
      checkDistrict(account?.district, district, {
        lat: input.location?.lat ?? null,
        lng: input.location?.lng ?? null,
      });
      const now = deps.clock.now();
      const made = await repo.insert({
        userId: who.userId,
        name: input.name,
        crop: input.crop,
        sizeAcres: input.size_acres ?? null,
        district,
        plantedOn: input.planted_on ?? null,
        lat: input.location?.lat ?? null,
        lng: input.location?.lng ?? null,
        createdAt: now,
        updatedAt: now,
      });
      if (made === 'name_taken') throw nameTaken();
      return (await views([made]))[0];
    },

    async update(who: Who, id: number, patch: FieldPatch): Promise<Field> {
      const field = await ownLive(who, id);
      checkPlanted(patch.planted_on);
      if (patch.crop && patch.crop !== field.crop && (await repo.hasHistory(id)))
        throw conflict('errors.fields.cropLocked', { crop: 'errors.fields.cropLocked' });
      if (patch.district !== undefined || patch.location !== undefined) {
        const point =
          patch.location !== undefined
            ? { lat: patch.location?.lat ?? null, lng: patch.location?.lng ?? null }
            : { lat: field.lat, lng: field.lng };
        const account = await repo.account(who.userId);
        checkDistrict(account?.district, patch.district !== undefined ? patch.district : field.district, point);
      }
      const change: FieldChange = {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.crop !== undefined && { crop: patch.crop }),
        ...(patch.size_acres !== undefined && { sizeAcres: patch.size_acres }),
        ...(patch.district !== undefined && { district: patch.district }),
        ...(patch.planted_on !== undefined && { plantedOn: patch.planted_on }),
        ...(patch.location !== undefined && { lat: patch.location?.lat ?? null, lng: patch.location?.lng ?? null }),
      };
      const row = await repo.update(id, change, deps.clock.now());
      if (row === 'name_taken') throw nameTaken();
      if (!row) throw notFound('errors.fields.notFound');
      return (await views([row]))[0];
    },

    /** Retires the field: it leaves the lists and takes no more photos or walks; its history stays. */
    async retire(who: Who, id: number): Promise<void> {
      await own(who, id);
      await repo.retire(id, deps.clock.now());
    },

    async get(who: Who, id: number): Promise<Field> {
      return (await views([await own(who, id)]))[0];
    },

    async page(who: Who, query: PageQuery): Promise<FieldList> {
      const { rows, total } = await repo.page(who.userId, pageWindow(query));
      return toPage(await views(rows), total, query);
    },

    /** Fields as the farmer reads them (the channels' lists). */
    views,
  };
}
export type FieldsService = ReturnType<typeof createFieldsService>;
