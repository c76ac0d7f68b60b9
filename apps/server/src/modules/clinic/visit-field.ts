import { createHash } from 'node:crypto';
import type { ClinicFieldChoicePage, clinicVisitFields, PageQuery, Walk } from '@kutu/contract';
import { walkStopsOf } from '@kutu/contract/field-rules';
import type { z } from 'zod';
import { AppError, badRequest, conflict } from '../../lib/errors.ts';
import { toPage } from '../../lib/pagination.ts';
import type { FieldsService } from '../fields/fields.service.ts';
import type { WalksService } from '../fields/walks.service.ts';

type Fields = z.output<typeof clinicVisitFields>;
type FieldRow = Awaited<ReturnType<FieldsService['listFor']>>[number];

const is = (err: unknown, status: number) => err instanceof AppError && err.status === status;

/**
 * A plant clinic visit's field and walk (docs/decisions/0078): the farmer's field the expert chose, a new one
 * they named, else the farmer's field of the visit's crop; and the walk they counted (plants looked at, plants
 * with rust), recorded as the farmer's walk of that field by the expert (`clinic`), at the stage they saw.
 */
export function createVisitField(uses: { fields: FieldsService; walks: Pick<WalksService, 'record' | 'get'> }) {
  const { fields, walks } = uses;

  /** A new field of the farmer, named by the expert; the same name again (a retried visit) is that field. */
  async function newField(farmerId: number, f: Fields, name: string): Promise<Pick<FieldRow, 'id' | 'name'>> {
    try {
      return await fields.create({ userId: farmerId }, { name, crop: f.crop, planted_on: f.planted_on ?? null });
    } catch (err) {
      if (is(err, 400)) throw badRequest('errors.fields.noDistrict', { field_name: 'errors.fields.noDistrict' });
      if (!is(err, 409)) throw err;
      const same = (await fields.listFor(farmerId)).find((r) => r.name.toLowerCase() === name.toLowerCase());
      if (same?.crop === f.crop) return same;
      throw conflict('errors.fields.nameTaken', { field_name: 'errors.fields.nameTaken' });
    }
  }

  return {
    /** The visit's field; another farmer's or a retired one is refused on `field_id`, another crop on `crop`. */
    async fieldFor(farmerId: number, f: Fields): Promise<Pick<FieldRow, 'id' | 'name'>> {
      if (f.field_name !== undefined) return newField(farmerId, f, f.field_name);
      if (f.field_id === undefined) return fields.defaultFor(farmerId, f.crop);
      try {
        return (await fields.forUpload(farmerId, { fieldId: f.field_id, crop: f.crop })).field;
      } catch (err) {
        // The form offers only the farmer's fields: another's reads as one that is not theirs.
        if (is(err, 404)) throw badRequest('errors.fields.notFound', { field_id: 'errors.fields.notFound' });
        throw err;
      }
    },

    /**
     * The walk counted at the visit, if the expert counted plants: the farmer's walk of the field, recorded by
     * the expert at the stage they saw. The visit's key keeps a retried visit from counting it twice.
     */
    async recordWalk(
      expertId: number,
      farmerId: number,
      fieldId: number,
      f: Fields,
      visitKey: string | undefined,
    ): Promise<Walk | null> {
      if (f.plants_looked === undefined) return null;
      const key =
        visitKey && `clinic-${createHash('sha256').update(`${expertId}\n${visitKey}`).digest('hex').slice(0, 40)}`;
      const { walk } = await walks.record(
        farmerId,
        fieldId,
        walkStopsOf({ looked: f.plants_looked, rust: f.plants_rust ?? 0 }),
        { channel: 'clinic', recordedBy: expertId, stageSaid: f.growth_stage, idempotencyKey: key || undefined },
      );
      return walk;
    },

    /** The walk of a visit as the expert reads it (null once erased). */
    async walkOf(farmerId: number, walkId: number | null): Promise<Walk | null> {
      if (walkId === null) return null;
      return walks.get({ userId: farmerId }, walkId).catch((err: unknown) => {
        if (is(err, 404)) return null;
        throw err;
      });
    },

    /** The live fields of a farmer (none for a number without one), for the visit form's choice. */
    async choices(farmerId: number | undefined, query: PageQuery): Promise<ClinicFieldChoicePage> {
      const rows = farmerId === undefined ? [] : await fields.listFor(farmerId);
      const start = (query.page - 1) * query.page_size;
      return toPage(
        rows.slice(start, start + query.page_size).map((r) => ({
          id: r.id,
          number: r.number,
          name: r.name,
          crop: r.crop,
          planted_on: r.plantedOn,
        })),
        rows.length,
        query,
      );
    },
  };
}
