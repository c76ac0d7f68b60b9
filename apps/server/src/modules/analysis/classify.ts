import path from 'node:path';
import type { AnalysisCrop, RustClass } from '@kutu/contract';
import { photoPrint, printToText } from '@kutu/vision';
import type { AnalysisFacts } from '../followup/followup.service.ts';
import type { ModuleDeps } from '../../deps.ts';
import type { FieldCuts } from '../training/field-cuts.service.ts';
import type { AccessClaims } from '../../lib/tokens.ts';
import { photoForStorage, type UploadedImage } from '../../lib/image-upload.ts';
import type { AnalysisRow } from './analysis.repo.ts';

/** Where a photo taken at `now` is stored: one folder per month. */
export const storageFolder = (now: Date) =>
  path.posix.join('analyses', String(now.getUTCFullYear()), String(now.getUTCMonth() + 1).padStart(2, '0'));

/** An analysis as the follow-up reads it. */
export const factsOf = (row: AnalysisRow): AnalysisFacts => ({
  ...row,
  rustClass: row.rustClass as RustClass | null,
});

/**
 * The model's answer, the photo as stored and its print (a leaf already in the answer is not added twice),
 * under the caller's share of the decode limiter. The answer is unsure below the crop's cut: the card's, or
 * the stricter one learnt from verified field photos (docs/decisions/0119), looked up while the photo shrinks.
 */
export function classifierOf(deps: ModuleDeps, cuts: Pick<FieldCuts, 'appliedFor'>) {
  const limiter = deps.decodeLimiter;
  return function classifyAndShrink(who: AccessClaims, image: UploadedImage, crop: AnalysisCrop | null | undefined) {
    return limiter.run(who.userId, async () => {
      const classifier = deps.classifier.current();
      const [diagnosis, photo, print] = await Promise.all([
        cuts.appliedFor(crop).then((cut) => classifier.classify(image.buffer, { crop, unsureBelow: cut.value })),
        photoForStorage(image),
        photoPrint(image.buffer),
      ]);
      return { diagnosis, photo, print: printToText(print) };
    });
  };
}
export type ClassifyAndShrink = ReturnType<typeof classifierOf>;
