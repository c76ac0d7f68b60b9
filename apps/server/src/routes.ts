import type { RouteModule } from './route-context.ts';
import type { Services } from './services.ts';
import { analysisRoutes } from './modules/analysis/analysis.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { clinicRoutes } from './modules/clinic/clinic.routes.ts';
import { communityRoutes } from './modules/community/community.routes.ts';
import { consultationsJobs } from './modules/consultations/consultations.jobs.ts';
import { consultationsRoutes } from './modules/consultations/consultations.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { deliveryJobs } from './modules/delivery/delivery.jobs.ts';
import { deliveryRoutes } from './modules/delivery/delivery.routes.ts';
import { devOutboxRoutes } from './modules/dev/outbox.routes.ts';
import { followUpJobs } from './modules/followup/followup.jobs.ts';
import { followUpRoutes } from './modules/followup/followup.routes.ts';
import { fieldsRoutes } from './modules/fields/fields.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { offlineModelRoutes } from './modules/offline-model/offline-model.routes.ts';
import { operationsRoutes } from './modules/operations/operations.routes.ts';
import { outbreakJobs } from './modules/outbreak/outbreak.jobs.ts';
import { outbreakRoutes } from './modules/outbreak/outbreak.routes.ts';
import { privacyRoutes } from './modules/privacy/privacy.routes.ts';
import { reviewRoutes } from './modules/review/review.routes.ts';
import { trainingJobs } from './modules/training/training.jobs.ts';
import { trainingRoutes } from './modules/training/training.routes.ts';
import { basicPhoneRoutes } from './modules/basic-phone/basic-phone.routes.ts';
import { vettingRoutes } from './modules/vetting/vetting.routes.ts';
import { backupJobs } from './modules/backup/backup.jobs.ts';
import { backupRoutes } from './modules/backup/backup.routes.ts';
import { extensionRoutes } from './modules/extension/extension.routes.ts';
import { heldWalksRoutes } from './modules/extension/held-walks.routes.ts';
import { extensionJobs } from './modules/extension/extension.jobs.ts';
import { callRoutes } from './modules/voice/call.routes.ts';
import { voiceJobs } from './modules/voice/voice.jobs.ts';
import { voiceRoutes } from './modules/voice/voice.routes.ts';
import { forecastJobs } from './modules/forecast/forecast.jobs.ts';
import { forecastRoutes } from './modules/forecast/forecast.routes.ts';

/**
 * Every module's queue and coordinator handlers, registered before the routes (docs/decisions/0042).
 * Each has the one signature `(app, { deps, services })` (docs/decisions/0056), and names the services it
 * takes: this list's type checks each against services.ts's `Services` (docs/decisions/0133).
 */
export const jobModules: RouteModule<Services>[] = [
  trainingJobs,
  consultationsJobs,
  outbreakJobs,
  followUpJobs,
  deliveryJobs,
  backupJobs,
  extensionJobs,
  voiceJobs,
  forecastJobs,
];

/**
 * Every routes function, in the order app.ts registers them (docs/decisions/0056). A new feature adds
 * its `<feature>.routes.ts` function here; it takes what it serves from `{ deps, services }`.
 */
export const routeModules: RouteModule<Services>[] = [
  healthRoutes,
  operationsRoutes,
  devOutboxRoutes,
  authRoutes,
  communityRoutes,
  consultationsRoutes,
  analysisRoutes,
  followUpRoutes,
  fieldsRoutes,
  trainingRoutes,
  notificationsRoutes,
  dashboardRoutes,
  reviewRoutes,
  offlineModelRoutes,
  vettingRoutes,
  outbreakRoutes,
  basicPhoneRoutes,
  clinicRoutes,
  deliveryRoutes,
  backupRoutes,
  privacyRoutes,
  extensionRoutes,
  heldWalksRoutes,
  voiceRoutes,
  callRoutes,
  forecastRoutes,
];
