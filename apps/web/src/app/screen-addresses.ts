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
 * The screens built into the entry (src/main.tsx imports them) instead of chunks of their own: the sign-in
 * screen is the first of most visits, and as its ~25 small chunks a phone fetched ~25 files before it
 * could show the form, and Lighthouse's simulated first paint waited for all of them (decision 0016).
 * They need no preload links; the build stops if one of them is built as a chunk of its own.
 */
export const SCREENS_IN_ENTRY: readonly string[] = [AUTH_LAYOUT, 'features/auth/pages/LoginPage.tsx'];

const auth = (page: string) => [AUTH_LAYOUT, `features/auth/pages/${page}.tsx`];
const account = (page: string) => [ACCOUNT_LAYOUT, `features/${page}.tsx`];

export const SCREEN_ADDRESSES: Readonly<Record<string, readonly string[]>> = {
  '/': auth('LoginPage'),
  '/auth': auth('LoginPage'),
  '/auth/forgot-password': auth('ForgotPasswordPage'),
  '/auth/activation': auth('ActivationPage'),
  '/auth/signup': auth('FarmerSignupPage'),
  '/auth/expert-signup': auth('ExpertSignupPage'),
  '/auth/officer-signup': auth('OfficerSignupPage'),
  '/auth/verify-email': auth('VerifyEmailPage'),
  '/auth/confirm-password-reset': auth('ConfirmPasswordResetPage'),
  '/account': account('dashboard/pages/DashboardPage'),
  '/account/settings': [ACCOUNT_LAYOUT],
  '/account/profile': account('profile/pages/ProfilePage'),
  '/account/expert-applications': account('vetting/pages/ExpertApplicationsPage'),
  '/account/extension': account('extension/pages/OfficerWeekPage'),
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
  '*': ['features/static/pages/NotFoundPage.tsx'],
};
