/**
 * The screen modules (paths under apps/web/src) the router loads for each address: the layout, then the
 * page. The build turns it into each address's files (scripts/screen-preloads.ts) and the server sends
 * those as `modulepreload` links in the address's index.html, so a phone fetches a screen's chunks while
 * the entry downloads, and Vite's preload helper, finding them, appends none (decision 0016). An address
 * that only redirects has what the router loads before redirecting. router.test.ts holds it to the router.
 */
export const AUTH_LAYOUT = 'app/layout/AuthLayout.tsx';
export const ACCOUNT_LAYOUT = 'app/layout/AccountLayout.tsx';

/**
 * The full app (Mantine, React Router, i18next and the router's table): src/main.tsx loads it for every
 * address but the sign-in screen's, whose first render needs none of them (the sign-in budget, decision
 * 0016). Preloaded (and precached) with the screens of those addresses, as if it were their first module.
 */
export const APP = 'app/App.tsx';
export const SIGN_IN = 'features/auth/pages/LoginPage.tsx';
/** The addresses src/main.tsx shows the sign-in screen at by itself, for a visitor not signed in. */
export const SIGN_IN_ADDRESSES: readonly string[] = ['/', '/auth'];

const auth = (page: string) => [AUTH_LAYOUT, `features/auth/pages/${page}.tsx`];
const account = (page: string) => [ACCOUNT_LAYOUT, `features/${page}.tsx`];

export const SCREEN_ADDRESSES: Readonly<Record<string, readonly string[]>> = {
  '/': [SIGN_IN],
  '/auth': [SIGN_IN],
  '/auth/forgot-password': auth('ForgotPasswordPage'),
  '/auth/activation': auth('ActivationPage'),
  '/auth/signup': auth('FarmerSignupPage'),
  '/auth/expert-signup': auth('ExpertSignupPage'),
  '/auth/officer-signup': auth('OfficerSignupPage'),
  '/auth/verify-email': auth('VerifyEmailPage'),
  '/auth/confirm-password-reset': auth('ConfirmPasswordResetPage'),
  '/account': account('dashboard/pages/DashboardPage'),
  '/account/settings': [ACCOUNT_LAYOUT],
  '/account/expert-applications': [ACCOUNT_LAYOUT],
  '/account/profile': account('profile/pages/ProfilePage'),
  '/account/admin': account('admin/pages/AdminPage'),
  '/account/extension': account('extension/pages/OfficerWeekPage'),
  '/account/forecast': account('forecast/pages/ForecastDeskPage'),
  '/account/fields': account('fields/pages/FieldsPage'),
  '/account/fields/:id': account('fields/pages/FieldPage'),
  '/account/fields/:id/walk': account('fields/pages/WalkPage'),
  '/account/addresses/image-analysis': account('analysis/pages/UploadImagePage'),
  '/account/addresses/analysis-history': account('analysis/pages/AnalysisHistoryPage'),
  '/account/addresses/education-resources': account('analysis/pages/EducationResourcesPage'),
  '/account/addresses/model-training': account('training/pages/ModelTrainingPage'),
  '/account/addresses/review-queue': account('review/pages/ReviewQueuePage'),
  '/account/addresses/outbreak-map': account('outbreak/pages/OutbreakMapPage'),
  '/account/addresses/clinic': account('clinic/pages/ClinicPage'),
  '/account/addresses/all-posts': account('community/pages/AllPostsPage'),
  '/account/addresses/community-posts': account('community/pages/MakePostPage'),
  '/account/addresses/availability-slots': account('consultations/pages/CreateSlotPage'),
  '/account/addresses/slots': account('consultations/pages/SlotsPage'),
  '/account/addresses/my-bookings': account('consultations/pages/MyBookingsPage'),
  '/account/addresses/bookings': account('consultations/pages/BookingsPage'),
  '/account/addresses/call-backs': account('phone/pages/CallbacksPage'),
  '/account/phone-menu': account('phone/pages/UssdSimulatorPage'),
  '/account/voice-clips': account('voice/pages/VoiceClipsPage'),
  '/account/addresses/:id': account('community/pages/PostCommentsPage'),
  '/terms': ['features/static/pages/TermsPage.tsx'],
  '/contact-us': ['features/static/pages/ContactPage.tsx'],
  // Old addresses that redirect at once: nothing loads before the redirect.
  '/signup': [],
  '/dashboard': [],
  '/experts': [],
  // Short addresses of an SMS: the server redirects them; offline the router does (router.tsx).
  '/a/:id': [],
  '/f/:id': [],
  '/w/:id': [],
  '*': ['features/static/pages/NotFoundPage.tsx'],
};

/** What an address's first render needs, in order: the full app (but at the sign-in screen), then its screens. */
export const ADDRESS_MODULES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(SCREEN_ADDRESSES).map(([address, modules]) => [
    address,
    SIGN_IN_ADDRESSES.includes(address) ? modules : [APP, ...modules],
  ]),
);
