import { diagnosisFacts, fieldPhotoSql } from '../../src/modules/analysis/analysis.service.ts';
import { callbackFacts, closeCallbacks } from '../../src/modules/basic-phone/basic-phone.service.ts';
import { visitFacts } from '../../src/modules/clinic/clinic.service.ts';
import { fieldNameFacts, liveFieldFacts } from '../../src/modules/fields/fields.service.ts';

/** The ports services.ts hands in, for tests that build the services themselves. */
export { fieldPhotoSql };

/** What the follow-ups read of diagnoses and fields (their `FollowUpSources`), as services.ts hands it in. */
export const followUpSources = { diagnoses: diagnosisFacts, fields: fieldNameFacts, liveFields: liveFieldFacts };

/** What an officer's week reads of clinic visits and call-back requests (extension's `ExtensionSources`). */
export const extensionSources = { visits: visitFacts, callbacks: callbackFacts, closeCallbacks };
