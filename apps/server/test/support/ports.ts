import { diagnosisFacts, fieldPhotoSql } from '../../src/modules/analysis/analysis.service.ts';
import { fieldNameFacts, liveFieldFacts } from '../../src/modules/fields/fields.service.ts';

/** The ports services.ts hands in, for tests that build the services themselves. */
export { fieldPhotoSql };

/** What the follow-ups read of diagnoses and fields (their `FollowUpSources`), as services.ts hands it in. */
export const followUpSources = { diagnoses: diagnosisFacts, fields: fieldNameFacts, liveFields: liveFieldFacts };
