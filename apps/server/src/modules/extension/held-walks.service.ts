import { districtByCode, type HeldWalks } from '@kutu/contract';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { WalksService } from '../fields/walks.service.ts';
import type { ApplicationsService } from '../vetting/applications.service.ts';

type Who = { userId: number; role: string };

/**
 * Walks that wait before they count (docs/decisions/0105): a field far from its farmer, or a share far from
 * the district's. An expert sees and confirms any district's; an officer only their own districts'.
 */
export function createHeldWalksService(uses: {
  walks: Pick<WalksService, 'heldIn' | 'withDistrict' | 'confirm'>;
  officers: Pick<ApplicationsService, 'districtsOf'>;
}) {
  async function mayJudge(who: Who, district: string | null) {
    if (who.role === 'expert') return;
    if (!district || !(await uses.officers.districtsOf(who.userId)).includes(district))
      throw forbidden('errors.officer.notYourDistrict');
  }

  return {
    async list(who: Who, code: string): Promise<HeldWalks> {
      if (!districtByCode(code)) throw notFound('errors.outbreak.unknownDistrict');
      await mayJudge(who, code);
      const rows = await uses.walks.heldIn(code);
      return {
        results: rows.map(({ walk, fieldName, crop }) => ({
          id: walk.id,
          field_name: fieldName,
          crop,
          walked_at: walk.walkedAt.toISOString(),
          plants_looked: walk.plantsLooked,
          plants_rust: walk.plantsRust,
          held_for: walk.heldFor ?? 'far_walk',
        })),
      };
    },

    /** The held walk counts from now on; a walk that was never held, or is confirmed, stays as it is. */
    async confirm(who: Who, walkId: number): Promise<void> {
      const row = await uses.walks.withDistrict(walkId);
      if (!row) throw notFound('errors.fields.walkNotFound');
      await mayJudge(who, row.district);
      if (row.walk.heldFor) await uses.walks.confirm(walkId, who.userId);
    },
  };
}
