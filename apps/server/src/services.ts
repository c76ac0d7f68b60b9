import type { ModuleDeps } from './deps.ts';
import { createChannels, createDeliveryService } from './modules/delivery/delivery.service.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { createEscalationService } from './modules/review/escalation.service.ts';
import { createAdviceService } from './modules/analysis/advice.service.ts';
import { createAnalysisService } from './modules/analysis/analysis.service.ts';
import { createResourcesService } from './modules/analysis/resources.service.ts';
import { createAccountService } from './modules/auth/account.service.ts';
import { createAuthShared } from './modules/auth/auth.shared.ts';
import { createCodeService } from './modules/auth/codes.service.ts';
import { createRecoveryService } from './modules/auth/recovery.service.ts';
import { createSessionService } from './modules/auth/session.service.ts';
import { createSignupService } from './modules/auth/signup.service.ts';
import { createCommunityService } from './modules/community/community.service.ts';
import { createAvailabilityService } from './modules/consultations/availability.service.ts';
import { createConsultationsService } from './modules/consultations/consultations.service.ts';
import { createDashboardService } from './modules/dashboard/dashboard.service.ts';
import { createOfflineModelService } from './modules/offline-model/offline-model.service.ts';
import { createOpenFeedService } from './modules/outbreak/open-feed.service.ts';
import { createOutbreakService } from './modules/outbreak/outbreak.service.ts';
import { createFollowUpService } from './modules/followup/followup.service.ts';
import { createFieldsService } from './modules/fields/fields.service.ts';
import { createWalksService } from './modules/fields/walks.service.ts';
import { createClinicService } from './modules/clinic/clinic.service.ts';
import { createReviewService } from './modules/review/review.service.ts';
import { createRetrainingService, type TrainingLog } from './modules/training/retraining.service.ts';
import { createFieldCuts } from './modules/training/field-cuts.service.ts';
import { createSamplesService } from './modules/training/samples.service.ts';
import { createVersionsService } from './modules/training/versions.service.ts';
import { createApplicationRecords, createApplicationsService } from './modules/vetting/applications.service.ts';
import { createExtensionService } from './modules/extension/extension.service.ts';
import { createHeldWalksService } from './modules/extension/held-walks.service.ts';
import { createBasicPhoneService } from './modules/basic-phone/basic-phone.service.ts';
import { createBackupSchedule } from './modules/backup/backup.schedule.ts';
import { createConsentService } from './modules/privacy/consent.service.ts';
import { createErasureService } from './modules/privacy/erasure.service.ts';
import { createExportService } from './modules/privacy/export.service.ts';
import { createVoiceService } from './modules/voice/voice.service.ts';
import { createForecastService } from './modules/forecast/forecast.service.ts';
import {
  clinicFarmerSql,
  decisionFacts,
  extensionSources,
  fieldPhotoSql,
  followUpSources,
  outbreakSources,
  trainingSources,
} from './ports.ts';

/**
 * The service graph, built once per app (docs/decisions/0042): each service is made here and handed to
 * its routes, its jobs and the services that use it, so no service builds another and there is one of
 * each (one cache, one queue handler). Auth is four services over one shared part (sign-up, session,
 * recovery, account); notifications and delivery come first, as every service reaches them through
 * its ModuleDeps; analysis and review share the one outbreak service; analysis tells the follow-ups of each new photo,
 * and puts it in a field (the fields service, which the follow-ups and walks use too).
 */
export function createServices(base: Omit<ModuleDeps, 'notifications' | 'delivery'>, log: TrainingLog) {
  const notifications = createNotificationsService(base.db, base.clock, base.coordinator);
  const delivery = createDeliveryService(base, createChannels(base), {
    leaseMs: base.config.deliveryLeaseSeconds * 1000,
    concurrency: base.config.deliverySendsInFlight,
    passes: base.config.deliveryClaimsAtOnce,
    ...base.deliveryOptions,
    log: (msg, err) => log.error({ err }, msg),
  });
  // Every other service reaches these two through its ModuleDeps (lib/notifier.ts, lib/deliverer.ts).
  const deps: ModuleDeps = { ...base, notifications, delivery };
  const codes = createCodeService(deps);
  // Auth writes and shows applications (vetting's records); vetting's decisions sign people out through auth.
  const authShared = createAuthShared(deps, log, codes, createApplicationRecords(deps.db));
  const consent = createConsentService(deps);
  const signup = createSignupService(authShared, consent);
  const account = createAccountService(authShared);
  const consultations = createConsultationsService(deps);
  const erasure = createErasureService(deps, log, { codes, consultations });
  const advice = createAdviceService(deps);
  // Counting reads analyses, verdicts and clinic farmers through their owners (all three use outbreak).
  const outbreak = createOutbreakService(deps, outbreakSources);
  const escalation = createEscalationService(deps.db);
  const fields = createFieldsService(deps, fieldPhotoSql);
  // The follow-ups read diagnoses and fields through their owners' facts (both modules use follow-ups).
  const followUps = createFollowUpService(deps, escalation, fields, followUpSources);
  const walks = createWalksService(deps, fields, followUps, escalation, fieldPhotoSql);
  // Each crop's unsure cut learnt from the field (0119): one cache, read by answers, phones and figures.
  // Training reads analyses and consents through their owners (analysis uses training; privacy reaches it).
  const fieldCuts = createFieldCuts(deps, trainingSources);
  // Analysis shows the experts' decisions through the review module's facts (review uses analysis).
  const analysis = createAnalysisService(deps, advice, outbreak, followUps, fields, fieldCuts, decisionFacts);
  const community = createCommunityService(deps);
  const versions = createVersionsService(deps, deps.training);
  const retraining = createRetrainingService(deps, versions, fieldCuts, trainingSources, deps.training, log);
  const samples = createSamplesService(deps, retraining, trainingSources);
  const resources = createResourcesService(deps);
  const applications = createApplicationsService(deps, account);
  const forecast = createForecastService(
    deps,
    { outbreak, followUps, walks, national: applications, clinicFarmerSql },
    (msg, err) => log.error({ err }, msg),
  );
  const extension = createExtensionService(deps, {
    outbreak,
    officers: applications,
    walks,
    reviews: escalation,
    forecast,
    // Plant-clinic visits and call-back requests through their owners (both modules use extension).
    sources: extensionSources,
  });
  const review = createReviewService(deps, { analysis, samples, community, outbreak, followUps, extension });
  const basicPhone = createBasicPhoneService(
    deps,
    { outbreak, signup, followUps, consent, erasure, fields, walks, forecast },
    (err) => log.error({ err }, 'could not send an SMS reply or place a call'),
  );
  const services = {
    notifications,
    delivery,
    signup,
    session: createSessionService(authShared, signup),
    recovery: createRecoveryService(authShared),
    account,
    advice,
    analysis,
    resources,
    community,
    consultations,
    availability: createAvailabilityService(deps),
    dashboard: createDashboardService(deps.db, deps.clock),
    offlineModel: createOfflineModelService(deps, advice, resources, fieldCuts),
    review,
    clinic: createClinicService(deps, { analysis, review, followUps, signup, fields, walks }),
    outbreak,
    openFeed: createOpenFeedService(deps, { outbreak, walks }),
    followUps,
    fields,
    walks,
    samples,
    retraining,
    versions,
    applications,
    extension,
    heldWalks: createHeldWalksService({ walks, officers: applications }),
    consent,
    exporter: createExportService(deps),
    erasure,
    basicPhone,
    voice: createVoiceService(deps, { advice, basicPhone, placed: delivery }, (msg, err) => log.error({ err }, msg)),
    forecast,
    backups: createBackupSchedule(deps, (msg, err) => log.error({ err }, msg)),
  };
  return { deps, services };
}
export type Services = ReturnType<typeof createServices>['services'];
