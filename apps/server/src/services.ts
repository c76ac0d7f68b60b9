import type { ModuleDeps } from './deps.ts';
import { createAdviceService } from './modules/analysis/advice.service.ts';
import { createAnalysisService } from './modules/analysis/analysis.service.ts';
import { createResourcesService } from './modules/analysis/resources.service.ts';
import { createAccountService } from './modules/auth/account.service.ts';
import { createAuthShared } from './modules/auth/auth.shared.ts';
import { createRecoveryService } from './modules/auth/recovery.service.ts';
import { createSessionService } from './modules/auth/session.service.ts';
import { createSignupService } from './modules/auth/signup.service.ts';
import { createCommunityService } from './modules/community/community.service.ts';
import { createAvailabilityService } from './modules/consultations/availability.service.ts';
import { createConsultationsService } from './modules/consultations/consultations.service.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { createOfflineModelService } from './modules/offline-model/offline-model.service.ts';
import { createOutbreakService } from './modules/outbreak/outbreak.service.ts';
import { createFollowUpService } from './modules/followup/followup.service.ts';
import { createClinicService } from './modules/clinic/clinic.service.ts';
import { createReviewService } from './modules/review/review.service.ts';
import { createRetrainingService, type TrainingLog } from './modules/training/retraining.service.ts';
import { createSamplesService } from './modules/training/samples.service.ts';
import { createVersionsService } from './modules/training/versions.service.ts';
import { createVettingService } from './modules/vetting/vetting.service.ts';
import { createUssdService } from './modules/ussd/ussd.service.ts';

/**
 * The service graph, built once per app (docs/decisions/0042): each service is made here and handed to
 * its routes, its jobs and the services that use it, so no service builds another and there is one of
 * each (one cache, one queue handler). Auth is four services over one shared part (sign-up, session,
 * recovery, account); analysis and review share the one outbreak service; analysis tells the follow-ups of each new photo.
 */
export function createServices(deps: ModuleDeps, log: TrainingLog) {
  const authShared = createAuthShared(deps, log);
  const signup = createSignupService(authShared);
  const advice = createAdviceService(deps);
  const outbreak = createOutbreakService(deps);
  const followUps = createFollowUpService(deps);
  const analysis = createAnalysisService(deps, advice, outbreak, followUps);
  const community = createCommunityService(deps);
  const versions = createVersionsService(deps, deps.training);
  const retraining = createRetrainingService(deps, versions, deps.training, log);
  const samples = createSamplesService(deps, retraining);
  const review = createReviewService(deps, { analysis, samples, community, outbreak, followUps });
  return {
    signup,
    session: createSessionService(authShared, signup),
    recovery: createRecoveryService(authShared),
    account: createAccountService(authShared),
    advice,
    analysis,
    resources: createResourcesService(deps),
    community,
    consultations: createConsultationsService(deps),
    availability: createAvailabilityService(deps),
    dashboard: createDashboardService(deps.db, deps.clock),
    offlineModel: createOfflineModelService(deps, advice),
    review,
    clinic: createClinicService(deps, { analysis, review, followUps, signup }),
    outbreak,
    followUps,
    samples,
    retraining,
    versions,
    vetting: createVettingService(deps),
    ussd: createUssdService(deps, { outbreak, signup }, (err) => log.error({ err }, 'could not send an SMS reply')),
  };
}
