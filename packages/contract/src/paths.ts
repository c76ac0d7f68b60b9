/** API paths (all under /api/, with trailing slashes as the spec writes them). */
export const api = {
  health: '/api/health/',
  devOutbox: '/api/dev/outbox/',
  auth: {
    login: '/api/auth/login/',
    registerFarmer: '/api/auth/register/farmer/',
    registerExpert: '/api/auth/register/expert/',
    /** An extension officer applies for one or more districts; an administrator decides. */
    registerOfficer: '/api/auth/register/officer/',
    verifyEmail: '/api/auth/verify-email/',
    resendOtp: '/api/auth/resend-otp/',
    activate: '/api/auth/activate/',
    refresh: '/api/auth/token/refresh/',
    logout: '/api/auth/logout/',
    forgotPassword: '/api/auth/forgot-password/',
    resetPassword: '/api/auth/reset-password/',
    /** The SMS way: phone number + the code sent by forgot-password, for accounts signed up by phone. */
    resetPasswordByCode: '/api/auth/reset-password/code/',
    changePassword: '/api/auth/change-password/',
    completeProfile: '/api/auth/complete-profile/',
    me: '/api/auth/me/',
    /** PUT (signed in, any role): the account's language. */
    language: '/api/auth/language/',
    /** A phone-only farmer adds an email: POST sends a code to it, confirm/ checks the code. */
    addEmail: '/api/auth/email/',
    confirmEmail: '/api/auth/email/confirm/',
  },
} as const;

/** API paths of the analysis feature (rust detection and education resources). */
/**
 * Header of `POST analysisApi.detect` that makes the upload idempotent: a photo queued on the phone
 * carries one key for life, and a repeat with the same key (same user) answers 200 with the first
 * analysis instead of making another. Here, zod-free, for the phone's upload queue in the account shell.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

export const analysisApi = {
  /** POST (farmer, multipart field `image`) analyses a photo; GET lists the caller's analyses. */
  detect: '/api/rust-detection/',
  list: '/api/rust-detection/',
  /** Route patterns; use the `…Path(id)` helpers to call them. */
  detail: '/api/rust-detection/:id/',
  detailPath: (id: number | string) => `/api/rust-detection/${id}/`,
  image: '/api/rust-detection/:id/image/',
  imagePath: (id: number | string) => `/api/rust-detection/${id}/image/`,
  heatmap: '/api/rust-detection/:id/heatmap/',
  heatmapPath: (id: number | string) => `/api/rust-detection/${id}/heatmap/`,
  /**
   * POST (owner, multipart field `image`) adds another leaf of the same field to an unsure or close
   * answer; the answer becomes the field's (docs/decisions/0040). GET `photoPath(id, n)`: photo n (0 is
   * the first, the same as `imagePath`).
   */
  photos: '/api/rust-detection/:id/photos/',
  photosPath: (id: number | string) => `/api/rust-detection/${id}/photos/`,
  photo: '/api/rust-detection/:id/photos/:position/',
  photoPath: (id: number | string, position: number) => `/api/rust-detection/${id}/photos/${position}/`,
  resources: '/api/education-resources/',
  /** GET (signed in) lists the advice; PUT (expert) edits one entry. */
  advice: '/api/advice/',
  adviceItem: '/api/advice/:id/',
  adviceItemPath: (id: number | string) => `/api/advice/${id}/`,
  /** POST (owner): the farmer is looking at this result; its notification is marked read. */
  seen: '/api/rust-detection/:id/seen/',
  seenPath: (id: number | string) => `/api/rust-detection/${id}/seen/`,
  /**
   * GET (farmer): the caller's diagnoses whose reminder is open (advice to treat, not yet followed up),
   * newest first: what a new photo may say it follows up (`follow_up_of` of the upload).
   */
  openFollowUps: '/api/follow-ups/open/',
  resource: '/api/education-resources/:id/',
  resourcePath: (id: number | string) => `/api/education-resources/${id}/`,
  /** PUT (expert) writes a resource's title and description in Kiswahili or Luganda; DELETE removes them. */
  resourceTranslation: '/api/education-resources/:id/translations/:language/',
  resourceTranslationPath: (id: number | string, language: string) =>
    `/api/education-resources/${id}/translations/${language}/`,
} as const;

/** Community board paths (spec point 7), under /api/ with trailing slashes. `:name` marks a parameter. */
export const communityApi = {
  posts: '/api/community/posts/',
  allPosts: '/api/community/posts/all/',
  myPosts: '/api/community/posts/mine/',
  post: '/api/community/posts/:id/',
  /** GET: a post's photo (JPEG or PNG), for whoever may see the post. */
  postImage: '/api/community/posts/:id/image/',
  moderatePost: '/api/community/posts/moderate/:id/',
  responses: '/api/community/responses/:postId/',
  /** PUT: moderate one comment (`:id` is the comment's id). */
  moderateResponse: '/api/community/responses/moderate/:id/',
  /** GET: a post's comments for moderation (`:id` is the post's id). */
  // `:id` as in moderateResponse's path: OpenAPI treats paths differing only by parameter name as one.
  moderationQueue: '/api/community/responses/moderate/:id/',
  moderationLog: '/api/community/moderation-log/',
  /** GET (expert): how many posts and farmer comments wait for moderation. */
  pendingCount: '/api/community/pending-count/',
} as const;

/** Fills `:name` parameters of a path pattern: `communityPath(communityApi.post, { id: 3 })`. */
export function communityPath(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

/** API paths of the consultations feature (spec point 7), under /api/ with trailing slashes. */
export const consultationsApi = {
  slots: '/api/consultations/availability-slots/',
  endSlot: (id: number | string) => `/api/consultations/availability-slots/end/${id}/`,
  endSlotRoute: '/api/consultations/availability-slots/end/:id/',
  allSlots: '/api/consultations/availability-slots/all/',
  /** The same slots, a page of experts each with their slots. */
  slotsByExpert: '/api/consultations/availability-slots/by-expert/',
  bookings: '/api/consultations/consultations/',
  manageBookings: '/api/consultations/consultations/manage/',
  bookingCalendar: (id: number | string) => `/api/consultations/consultations/${id}/calendar.ics`,
  bookingCalendarRoute: '/api/consultations/consultations/:id/calendar.ics',
  cancelBooking: (id: number | string) => `/api/consultations/consultations/${id}/cancel/`,
  cancelBookingRoute: '/api/consultations/consultations/:id/cancel/',
  rules: '/api/consultations/availability-rules/',
  endRule: (id: number | string) => `/api/consultations/availability-rules/${id}/end/`,
  endRuleRoute: '/api/consultations/availability-rules/:id/end/',
} as const;

/** API paths of the dashboard feature. */
export const dashboardApi = {
  summary: '/api/dashboard/',
} as const;

/** API paths of the notifications feature. */
export const notificationsApi = {
  list: '/api/notifications/',
  /** Route pattern; use `markReadPath(id)` to call it. */
  markRead: '/api/notifications/:id/read/',
  markReadPath: (id: number | string) => `/api/notifications/${id}/read/`,
  readAll: '/api/notifications/read-all/',
  streamToken: '/api/notifications/stream-token/',
  stream: '/api/notifications/stream/',
} as const;

/** Expert training data, retraining jobs and model versions. `:name` marks a parameter. */
/** Fills `:name` parameters: `trainingPath(trainingApi.sample, { id: 3 })`. */
export const trainingPath = communityPath;

export const trainingApi = {
  /** POST multipart: `image` (1 to TRAINING_MAX_FILES files), `label`, optional `crop_type`. */
  upload: '/api/upload-training-images/',
  samples: '/api/training-samples/',
  sample: '/api/training-samples/:id/',
  sampleImage: '/api/training-samples/:id/image/',
  counts: '/api/training-samples/counts/',
  fromAnalysis: '/api/training-samples/from-analysis/',
  jobs: '/api/model-training/jobs/',
  job: '/api/model-training/jobs/:id/',
  versions: '/api/model-versions/',
  activateVersion: '/api/model-versions/:id/activate/',
  /** GET (expert, admin): the held-back field photos by crop and class, and the last field check. */
  fieldSet: '/api/model-training/field-set/',
} as const;

/** The model phones download to diagnose with no signal (docs/decisions/0017). */
export const offlineModelApi = {
  /** GET (signed in): the active model's version, file and size, and the advice to show offline. */
  info: '/api/offline-model/',
  /** GET (signed in): the model file of a version; immutable, so cached for a year. */
  file: '/api/offline-model/:version/model.onnx',
  filePath: (version: string) => `/api/offline-model/${encodeURIComponent(version)}/model.onnx`,
} as const;

/**
 * Administrators vet every role that needs approval (docs/decisions/0027, 0093): one family of paths
 * with the role in it (`expert`, `officer`: the contract's `approvalRoles`). `:id` is the applicant's user id.
 */
export const vettingApi = {
  /** GET (admin): a role's applications, pending first (oldest first), then the decided ones (latest first). */
  applications: '/api/admin/applications/:role/',
  /** POST (admin): approve a pending or refused application. */
  approve: '/api/admin/applications/:role/:id/approve/',
  /** POST (admin): refuse a pending application, with a reason the applicant reads. */
  refuse: '/api/admin/applications/:role/:id/refuse/',
  /** POST (admin): withdraw an approval (they left the office), with a reason: refused from then on, signed out everywhere. */
  withdraw: '/api/admin/applications/:role/:id/withdraw/',
  /** PUT (admin): an approved officer's national scope, `{ national }` (docs/decisions/0122). */
  national: '/api/admin/officers/:id/national/',
  nationalPath: (id: number | string) => `/api/admin/officers/${id}/national/`,
  /** One role's paths, as the administrator's screen and the tests call them. */
  of: (role: string) => ({
    applications: `/api/admin/applications/${role}/`,
    approvePath: (id: number | string) => `/api/admin/applications/${role}/${id}/approve/`,
    refusePath: (id: number | string) => `/api/admin/applications/${role}/${id}/refuse/`,
    withdrawPath: (id: number | string) => `/api/admin/applications/${role}/${id}/withdraw/`,
  }),
} as const;

/** Messages to people that failed for good, and the SMS gateway's delivery reports (docs/decisions/0050). */
export const deliveryApi = {
  /** GET (admin): failed messages, newest first. */
  failed: '/api/admin/messages/failed/',
  /** POST (admin): send a failed message again. */
  resend: '/api/admin/messages/:id/resend/',
  resendPath: (id: number | string) => `/api/admin/messages/${id}/resend/`,
  /** POST (the SMS gateway, with `?secret=`): a delivery report, as a form. */
  reports: '/api/sms/delivery-reports/',
} as const;

/** The worker's scheduled backups (npm run backup / restore are the operator's commands). */
export const backupApi = {
  /** GET (admin): when the last backup was taken, its size, whether it was verified. */
  status: '/api/admin/backups/',
} as const;

/** Expert review of farmers' analyses. `:id` is always the analysis id. */
export const reviewApi = {
  /** GET (expert): analyses waiting for review, most useful first. */
  queue: '/api/expert-reviews/queue/',
  /** GET (farmer): the caller's questions and the verdicts on their analyses. */
  mine: '/api/expert-reviews/mine/',
  /** GET (expert): the caller's own verdicts, latest first (to revise one). */
  decided: '/api/expert-reviews/decided/',
  /** GET: dashboard figures for the caller's role. */
  summary: '/api/expert-reviews/summary/',
  /** GET (expert): field accuracy per model version, from expert verdicts. */
  fieldAccuracy: '/api/expert-reviews/field-accuracy/',
  /** GET (expert, admin): how often Kutu was right, confidently wrong and unsure, by crop and month. */
  fieldFigures: '/api/expert-reviews/field-figures/',
  /** GET (owner farmer or expert): the review of one analysis; PUT (expert): decide or revise. */
  review: '/api/expert-reviews/:id/',
  reviewPath: (id: number | string) => `/api/expert-reviews/${id}/`,
  /** POST (expert): claim for CLAIM_MINUTES; DELETE: give the claim back. */
  claim: '/api/expert-reviews/:id/claim/',
  claimPath: (id: number | string) => `/api/expert-reviews/${id}/claim/`,
  /** POST (owner farmer): ask an expert about this analysis. */
  ask: '/api/expert-reviews/:id/ask/',
  askPath: (id: number | string) => `/api/expert-reviews/${id}/ask/`,
  /** POST (owner farmer): turn the answered exchange into a community post. */
  /** POST (owner farmer): a "no leaf" answer on a photo of a leaf goes to the expert queue (idempotent). */
  leafCheck: '/api/expert-reviews/:id/leaf-check/',
  leafCheckPath: (id: number | string) => `/api/expert-reviews/${id}/leaf-check/`,
  communityPost: '/api/expert-reviews/:id/community-post/',
  communityPostPath: (id: number | string) => `/api/expert-reviews/${id}/community-post/`,
} as const;

/** Plant clinic visits recorded by approved experts (docs/decisions/0053). */
export const clinicApi = {
  /** POST (expert, multipart `photos` + fields): a visit and Kutu's diagnosis; GET: the caller's records. */
  visits: '/api/clinic/visits/',
  /** GET (the recording expert): one visit. */
  visit: '/api/clinic/visits/:id/',
  visitPath: (id: number | string) => `/api/clinic/visits/${id}/`,
  /** POST (the recording expert): confirm or correct Kutu's diagnosis; the farmer gets one result SMS. */
  verdict: '/api/clinic/visits/:id/verdict/',
  verdictPath: (id: number | string) => `/api/clinic/visits/${id}/verdict/`,
  /** GET (expert): the caller's records as CSV. */
  csv: '/api/clinic/visits.csv',
  /** GET (expert, `?phone_number=`): the fields of the farmer of that number, for the visit form's choice. */
  farmerFields: '/api/clinic/farmer-fields/',
} as const;

/**
 * Short addresses for links in an SMS, where the whole text must fit one message: `/a/7` opens analysis
 * 7's result, `/f/7` the upload of a follow-up photo of analysis 7's field, `/w/7` the walk of field 7. The server sends them on to
 * the web app's screens (`shortLinkTargets`).
 */
export const shortLinks = {
  analysis: (id: number | string) => `/a/${id}`,
  followUp: (id: number | string) => `/f/${id}`,
  /** The walk of field 7 (a reminder to walk it again: docs/decisions/0078). */
  walk: (id: number | string) => `/w/${id}`,
} as const;

/** Where each short address leads in the web app. */
export const shortLinkTargets = [
  { prefix: '/a/', to: (id: number) => `/account/addresses/analysis-history?analysis=${id}` },
  { prefix: '/f/', to: (id: number) => `/account/addresses/image-analysis?follow_up=${id}` },
  { prefix: '/w/', to: (id: number) => `/account/fields/${id}/walk` },
] as const;

/** A person's data (docs/decisions/0067-consent-and-erasure.md): the archive, consent choices, deleting the account. */
export const privacyApi = {
  /** GET (farmer, expert): everything Kutu holds about the caller, one .tar.gz archive. */
  export: '/api/privacy/export/',
  /** GET: the caller's consent choices; PUT: change SMS or training. */
  consents: '/api/privacy/consents/',
  /** POST: sends a deletion code by SMS (for an account without a password). */
  deleteCode: '/api/privacy/account/code/',
  /** POST: erases the caller's account after the password or code. */
  deleteAccount: '/api/privacy/account/delete/',
  /** GET (admin): the erasure log. */
  erasures: '/api/privacy/erasures/',
};

/** Extension officers: their application, a district's week and report; administrators vet them. */
export const extensionApi = {
  /** GET (signed in, an officer in any state): the officer's application and districts. */
  me: '/api/extension/me/',
  /** GET (approved officer of the district): the district's week, `?week=YYYY-MM-DD` (any day of it). */
  week: '/api/extension/districts/:code/week/',
  weekPath: (code: string) => `/api/extension/districts/${code}/week/`,
  /** POST (approved officer of the farmer's district): records a call or a visit with a note. */
  actions: '/api/extension/districts/:code/actions/',
  actionsPath: (code: string) => `/api/extension/districts/${code}/actions/`,
  /** GET: the week as CSV (one block per district, the same numbers as the week screen). */
  reportCsv: '/api/extension/districts/:code/report.csv',
  reportCsvPath: (code: string) => `/api/extension/districts/${code}/report.csv`,
  /** GET: the week as a one-page PDF. */
  reportPdf: '/api/extension/districts/:code/report.pdf',
  reportPdfPath: (code: string) => `/api/extension/districts/${code}/report.pdf`,
  /**
   * GET (approved officer of the district, or an expert): the district's walks that wait for an expert or
   * officer before they count (docs/decisions/0105), oldest first.
   */
  heldWalks: '/api/extension/districts/:code/held-walks/',
  heldWalksPath: (code: string) => `/api/extension/districts/${code}/held-walks/`,
  /** POST (approved officer of the walk's district, or an expert): the held walk counts from now on. */
  confirmWalk: '/api/extension/walks/:id/confirm/',
  confirmWalkPath: (id: number) => `/api/extension/walks/${id}/confirm/`,
  /** GET: every district of the officer, the CSV in blocks and the PDF one page per district. */
  allReportCsv: '/api/extension/report.csv',
  allReportPdf: '/api/extension/report.pdf',
} as const;
