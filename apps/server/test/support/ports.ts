import {
  analysisCaseSql,
  diagnosisFacts,
  fieldPhotoSql,
  sampleSourceFacts,
} from '../../src/modules/analysis/analysis.service.ts';
import { callbackFacts, closeCallbacks } from '../../src/modules/basic-phone/basic-phone.service.ts';
import { clinicSmsFarmerSql, visitFacts } from '../../src/modules/clinic/clinic.service.ts';
import { fieldNameFacts, liveFieldFacts } from '../../src/modules/fields/fields.service.ts';
import { trainingAgreedSql } from '../../src/modules/privacy/consent.service.ts';
import { verdictCaseSql } from '../../src/modules/review/review.service.ts';

/** The ports services.ts hands in, for tests that build the services themselves. */
export { fieldPhotoSql };

/** What the follow-ups read of diagnoses and fields (their `FollowUpSources`), as services.ts hands it in. */
export const followUpSources = { diagnoses: diagnosisFacts, fields: fieldNameFacts, liveFields: liveFieldFacts };

/** What an officer's week reads of clinic visits and call-back requests (extension's `ExtensionSources`). */
export const extensionSources = { visits: visitFacts, callbacks: callbackFacts, closeCallbacks };

/** What the outbreak watch counts from: analyses, verdicts and clinic farmers (its `OutbreakSources`). */
export const outbreakSources = {
  analyses: analysisCaseSql,
  verdicts: verdictCaseSql,
  clinicFarmerSql: clinicSmsFarmerSql,
};

/** What training reads of analyses and consents (its `TrainingSources`), as services.ts hands it in. */
export const trainingSources = { analyses: sampleSourceFacts, agreedSql: trainingAgreedSql };
