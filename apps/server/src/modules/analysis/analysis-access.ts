import type { AccessClaims } from '../../lib/tokens.ts';
import { notFound } from '../../lib/errors.ts';
import type { AnalysisRow, createAnalysisRepo } from './analysis.repo.ts';

/** Who may reach an analysis: its owner, and (to look at it) an expert. */
export function createAnalysisAccess(repo: ReturnType<typeof createAnalysisRepo>) {
  /** An analysis the caller may see: their own, or any for an expert (who reviews them). */
  async function visibleAnalysis(who: AccessClaims, id: number): Promise<AnalysisRow> {
    const row = await repo.findById(id);
    if (!row || (row.userId !== who.userId && who.role !== 'expert')) throw notFound('errors.analysis.notFound');
    return row;
  }

  async function ownAnalysis(who: AccessClaims, id: number): Promise<AnalysisRow> {
    const row = await repo.findById(id);
    // Someone else's analysis reads as missing: its existence is not theirs to know.
    if (!row || row.userId !== who.userId) throw notFound('errors.analysis.notFound');
    return row;
  }

  return { visibleAnalysis, ownAnalysis };
}
export type AnalysisAccess = ReturnType<typeof createAnalysisAccess>;
