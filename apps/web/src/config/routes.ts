/** Every screen's path, so links never point at a route that does not exist. */
export const routes = {
  auth: {
    login: '/auth',
    forgotPassword: '/auth/forgot-password',
    activation: '/auth/activation',
    signup: '/auth/signup',
    expertSignup: '/auth/expert-signup',
    officerSignup: '/auth/officer-signup',
    verifyEmail: '/auth/verify-email',
    confirmPasswordReset: '/auth/confirm-password-reset',
  },
  terms: '/terms',
  contactUs: '/contact-us',
  dashboard: '/account',
  profile: '/account/profile',
  settings: '/account/settings',
  /** The administrator's page: applications, failed messages, backups, erased accounts. */
  admin: '/account/admin',
  imageAnalysis: '/account/addresses/image-analysis',
  analysisHistory: '/account/addresses/analysis-history',
  /** A farmer's fields (docs/decisions/0078): the list, one field, and a scouting walk of it. */
  fields: '/account/fields',
  field: (id: number | string) => `/account/fields/${id}`,
  fieldWalk: (id: number | string) => `/account/fields/${id}/walk`,
  educationResources: '/account/addresses/education-resources',
  modelTraining: '/account/addresses/model-training',
  reviewQueue: '/account/addresses/review-queue',
  outbreakMap: '/account/addresses/outbreak-map',
  clinic: '/account/addresses/clinic',
  /** Extension officers: their districts' week. */
  extensionWeek: '/account/extension',
  allPosts: '/account/addresses/all-posts',
  postComments: (id: number | string) => `/account/addresses/${id}`,
  communityPosts: '/account/addresses/community-posts',
  availabilitySlots: '/account/addresses/availability-slots',
  slots: '/account/addresses/slots',
  myBookings: '/account/addresses/my-bookings',
  bookings: '/account/addresses/bookings',
  /** Experts: farmers on basic phones who asked to be called back. */
  callbacks: '/account/addresses/call-backs',
  /** Administrators and experts: the USSD menu as a basic phone shows it. */
  ussdSimulator: '/account/phone-menu',
  /** Administrators and experts: Kutu's texts recorded in people's voices, and their approval. */
  voiceClips: '/account/voice-clips',
  /** Administrators and national officers: next week's risk, the advisories to hold, a run now (decision 0128). */
  forecastDesk: '/account/forecast',
} as const;
