/**
 * The ports: what one module reads of another module's tables, as the owner's facts and SQL conditions
 * (docs/CONTRIBUTING.md, "Tables and their owners"). Each set is written here once and handed in by
 * services.ts, the command-line tools and the tests that build services themselves; a module never
 * imports this file (it imports the modules that use it, and would close a cycle).
 */
import type { PhotoOwner } from './lib/orphan-photos.ts';
import {
  analysisCaseSql,
  analysisPhotoKeys,
  diagnosisFacts,
  fieldPhotoSql,
  sampleSourceFacts,
} from './modules/analysis/analysis.service.ts';
import { callbackFacts, closeCallbacks } from './modules/basic-phone/basic-phone.service.ts';
import { clinicSmsFarmerSql, visitFacts } from './modules/clinic/clinic.service.ts';
import { postPhotoKeys } from './modules/community/community.service.ts';
import { fieldNameFacts, liveFieldFacts } from './modules/fields/fields.service.ts';
import { trainingAgreedSql } from './modules/privacy/consent.service.ts';
import { decisionFacts, verdictCaseSql } from './modules/review/review.service.ts';
import { samplePhotoKeys } from './modules/training/samples.service.ts';

/** A field's photos as the fields and walks read them (the analysis module's). */
export { fieldPhotoSql };

/** The experts' decisions as an analysis shows them (the review module's). */
export { decisionFacts };

/** Which farmers came through a plant clinic (the forecast's and outbreak's SMS rule; the clinic module's). */
export const clinicFarmerSql = clinicSmsFarmerSql;

/** What outbreak watch counts from: analyses, verdicts and clinic farmers (its `OutbreakSources`). */
export const outbreakSources = { analyses: analysisCaseSql, verdicts: verdictCaseSql, clinicFarmerSql };

/** What the follow-ups read of diagnoses and fields (their `FollowUpSources`). */
export const followUpSources = { diagnoses: diagnosisFacts, fields: fieldNameFacts, liveFields: liveFieldFacts };

/** What an officer's week reads of clinic visits and call-back requests (extension's `ExtensionSources`). */
export const extensionSources = { visits: visitFacts, callbacks: callbackFacts, closeCallbacks };

/** What training reads of analyses and consents (its `TrainingSources`). */
export const trainingSources = { analyses: sampleSourceFacts, agreedSql: trainingAgreedSql };

/** The upload folders the orphan photo sweep (lib/orphan-photos.ts) clears, each with the module whose rows refer to its files. */
export const photoOwners: readonly PhotoOwner[] = [
  // An analysis owns its photo and its heatmap.
  { folder: 'analyses', referenced: analysisPhotoKeys },
  { folder: 'posts', referenced: postPhotoKeys },
  { folder: 'training', referenced: samplePhotoKeys },
];
