import type { ModuleDeps } from '../../deps.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import { notFound } from '../../lib/errors.ts';
import type { createAnalysisRepo } from './analysis.repo.ts';
import type { AnalysisAccess } from './analysis-access.ts';

/** Serving an analysis's stored files (photos and heatmap) to those who may see the analysis. */
export function createPhotoFiles(
  deps: ModuleDeps,
  repo: ReturnType<typeof createAnalysisRepo>,
  access: AnalysisAccess,
) {
  const { visibleAnalysis } = access;

  async function stored(imagePath: string) {
    const { body, size } = await deps.storage.stream(imagePath).catch(() => {
      throw notFound('errors.analysis.photoGone');
    });
    return { data: body, size, contentType: imagePath.endsWith('.png') ? 'image/png' : 'image/jpeg' };
  }

  return {
    /** Photo `position` of an answer (0 is the first): same access as the first photo. */
    async photoAt(who: AccessClaims, id: number, position: number) {
      const row = await visibleAnalysis(who, id);
      const imagePath = position === 0 ? row.imagePath : (await repo.findPhoto(id, position))?.imagePath;
      if (!imagePath) throw notFound('errors.analysis.photoNotFound');
      return stored(imagePath);
    },

    /** The heatmap of where the model looked: same access as the photo. */
    async heatmap(who: AccessClaims, id: number) {
      const row = await visibleAnalysis(who, id);
      if (!row.heatmapPath) throw notFound('errors.analysis.noHeatmap');
      const { body, size } = await deps.storage.stream(row.heatmapPath).catch(() => {
        throw notFound('errors.analysis.heatmapGone');
      });
      return { data: body, size, contentType: 'image/png' };
    },

    /** The stored photo: for its owner, and for experts (who review photos and label them). */
    async photo(who: AccessClaims, id: number) {
      const row = await visibleAnalysis(who, id);
      return stored(row.imagePath);
    },
  };
}
