import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, Outlet, type RouteObject, useLocation, useParams, useRoutes } from 'react-router';
import type { Role } from '@kutu/contract';
import { shortLinkTargets } from '@kutu/contract/paths';
import { ScreenLoading } from '../components/ScreenLoading.tsx';
import { RouteErrorBoundary } from './RouteError.tsx';
import { RedirectIfSignedIn, RequireAuth, RoleOnly } from './guards.tsx';
import { session } from '../lib/session.ts';
import { routes } from '../config/routes.ts';
import { addressPattern } from '@kutu/contract/screen-preloads';
import { ACCOUNT_LAYOUT, AUTH_LAYOUT, SCREEN_ADDRESSES } from './screen-addresses.ts';

/** A lazily loaded screen part and its modules. */
interface LazyScreen {
  element: ReactNode;
  handle: { modules: string[] };
}
type ScreenModule = Record<string, unknown>;

// Each screen module is one lazily loaded chunk, named by its path under src (screen-addresses.ts).
const screenModules = import.meta.glob<ScreenModule>([
  './layout/AuthLayout.tsx',
  './layout/AccountLayout.tsx',
  '../features/*/pages/*Page.tsx',
]);
// Module names are paths under src; the glob's keys are relative to this folder (app/).
const globKey = (module: string) => (module.startsWith('app/') ? `./${module.slice(4)}` : `../${module}`);
const importScreen = (module: string) => screenModules[globKey(module)]!();
/** The screen modules the router can load (router.test.ts: every one screen-addresses.ts names). */
export const loadableScreens = () =>
  Object.keys(screenModules).map((key) => (key.startsWith('./') ? `app/${key.slice(2)}` : key.replace(/^\.\.\//, '')));

/** Each screen module's preload, by module (what preloadScreen starts). */
const preloadOf = new Map<string, () => void>();

/**
 * A screen module may export `startQueries()`: the queries its first render reads. They start when React
 * first asks for the screen (past the guards), before it renders: the data is on its way one render
 * earlier, and the fetches are no longer started by the queries' subscriptions in the effects of the
 * commit that first shows the screen, a task already long on a slow phone (decision 0016).
 */

function lazyElement(
  module: string,
  component: (m: ScreenModule) => ComponentType | Promise<ComponentType> = (m) => m.default as ComponentType,
): LazyScreen {
  let loading: Promise<ScreenModule> | undefined;
  const loadOnce = () => (loading ??= importScreen(module));
  preloadOf.set(module, () => void loadOnce().catch(() => {}));
  const Lazy = lazy(() =>
    loadOnce().then(async (m) => {
      (m.startQueries as (() => void) | undefined)?.();
      // A staff or officer screen brings its own strings (lib/staff-strings.ts, lib/officer-strings.ts): it shows once they are in.
      await (m.screenStringsReady as Promise<void> | undefined);
      return { default: await component(m) };
    }),
  );
  const element = (
    <Suspense fallback={<ScreenLoading />}>
      <Lazy />
    </Suspense>
  );
  return { element, handle: { modules: [module] } };
}

function page(module: string, role?: Role): LazyScreen {
  const screen = lazyElement(`features/${module}.tsx`);
  return role ? { ...screen, element: <RoleOnly role={role}>{screen.element}</RoleOnly> } : screen;
}

// The layouts load with their first page: the sign-in screen does not download the account shell.
const authLayout = lazyElement(AUTH_LAYOUT, (m) => m.AuthLayout as ComponentType);
// The account shell shows once its strings are in (lib/account-strings.ts), never their keys.
const accountLayout = lazyElement(ACCOUNT_LAYOUT, async (m) => {
  await m.accountStringsReady;
  return m.AccountLayout as ComponentType;
});

const signIn = page('auth/pages/LoginPage');
const notFound = page('static/pages/NotFoundPage');

/**
 * A short address of an SMS (`/a/7`), when the app and not the server answers it: opened offline, or under
 * a service worker from before short links went to the server. Sent on as the server does (plugins/short-links.ts).
 */
function ShortLink({ to }: { to: (id: number) => string }) {
  const { id = '' } = useParams();
  return /^[1-9]\d{0,9}$/.test(id) ? <Navigate to={to(Number(id))} replace /> : notFound.element;
}

/** The auth screens in the auth layout (the sign-in screen aside). */
const authScreens: RouteObject[] = [
  { path: 'forgot-password', ...page('auth/pages/ForgotPasswordPage') },
  { path: 'activation', ...page('auth/pages/ActivationPage') },
  { path: 'signup', ...page('auth/pages/FarmerSignupPage') },
  { path: 'expert-signup', ...page('auth/pages/ExpertSignupPage') },
  { path: 'officer-signup', ...page('auth/pages/OfficerSignupPage') },
  { path: 'verify-email', ...page('auth/pages/VerifyEmailPage') },
  { path: 'confirm-password-reset', ...page('auth/pages/ConfirmPasswordResetPage') },
];

/** The route table of spec point 2, with its broken links pointed at real screens. */
const screens: RouteObject[] = [
  {
    path: '/',
    element: <Navigate to={routes.auth.login} replace />,
    handle: signIn.handle,
  },
  {
    path: '/auth',
    element: (
      <RedirectIfSignedIn>
        <Outlet />
      </RedirectIfSignedIn>
    ),
    children: [
      // The sign-in screen brings its own frame: src/main.tsx shows the same one without the router.
      { index: true, ...signIn },
      { element: authLayout.element, handle: authLayout.handle, children: authScreens },
    ],
  },
  {
    path: '/account',
    element: <RequireAuth>{accountLayout.element}</RequireAuth>,
    handle: accountLayout.handle,
    children: [
      { index: true, ...page('dashboard/pages/DashboardPage') },
      { path: 'settings', element: <Navigate to={routes.profile} replace /> },
      { path: 'profile', ...page('profile/pages/ProfilePage') },
      { path: 'admin', ...page('admin/pages/AdminPage', 'admin') },
      // Its address until the page held more than the applications (links and bookmarks keep working).
      { path: 'expert-applications', element: <Navigate to={routes.admin} replace /> },
      { path: 'extension', ...page('extension/pages/OfficerWeekPage', 'officer') },
      // Administrators and national officers: next week's risk and the advisories to hold (the server checks).
      { path: 'forecast', ...page('forecast/pages/ForecastDeskPage') },
      // A farmer's fields and their scouting walks (docs/decisions/0078).
      { path: 'fields', ...page('fields/pages/FieldsPage', 'farmer') },
      { path: 'fields/:id', ...page('fields/pages/FieldPage', 'farmer') },
      { path: 'fields/:id/walk', ...page('fields/pages/WalkPage', 'farmer') },
      // Administrators and experts (the server checks the role).
      { path: 'phone-menu', ...page('phone/pages/UssdSimulatorPage') },
      { path: 'voice-clips', ...page('voice/pages/VoiceClipsPage') },
      {
        path: 'addresses',
        children: [
          {
            path: 'image-analysis',
            ...page('analysis/pages/UploadImagePage', 'farmer'),
          },
          {
            path: 'analysis-history',
            ...page('analysis/pages/AnalysisHistoryPage', 'farmer'),
          },
          {
            path: 'education-resources',
            ...page('analysis/pages/EducationResourcesPage'),
          },
          {
            path: 'model-training',
            ...page('training/pages/ModelTrainingPage', 'expert'),
          },
          {
            path: 'review-queue',
            ...page('review/pages/ReviewQueuePage', 'expert'),
          },
          { path: 'clinic', ...page('clinic/pages/ClinicPage', 'expert') },
          // Outbreak watch, for farmers and experts (decision 0035).
          { path: 'outbreak-map', ...page('outbreak/pages/OutbreakMapPage') },
          {
            path: 'all-posts',
            ...page('community/pages/AllPostsPage', 'expert'),
          },
          {
            path: 'community-posts',
            ...page('community/pages/MakePostPage', 'farmer'),
          },
          {
            path: 'availability-slots',
            ...page('consultations/pages/CreateSlotPage', 'expert'),
          },
          { path: 'slots', ...page('consultations/pages/SlotsPage', 'farmer') },
          { path: 'call-backs', ...page('phone/pages/CallbacksPage', 'expert') },
          {
            path: 'my-bookings',
            ...page('consultations/pages/MyBookingsPage', 'farmer'),
          },
          {
            path: 'bookings',
            ...page('consultations/pages/BookingsPage', 'expert'),
          },
          { path: ':id', ...page('community/pages/PostCommentsPage', 'expert') },
        ],
      },
    ],
  },
  { path: '/terms', ...page('static/pages/TermsPage') },
  { path: '/contact-us', ...page('static/pages/ContactPage') },
  { path: '/signup', element: <Navigate to={routes.auth.signup} replace /> },
  { path: '/dashboard', element: <Navigate to={routes.dashboard} replace /> },
  { path: '/experts', element: <Navigate to={routes.slots} replace /> },
  ...shortLinkTargets.map(({ prefix, to }) => ({ path: `${prefix}:id`, element: <ShortLink to={to} /> })),
  { path: '*', ...notFound },
];

/**
 * Starts downloading the layout and the page of `pathname` together, before the first render; React
 * would otherwise ask for the page only once the layout has arrived, one round trip later (decision 0016).
 */
export function preloadScreen(pathname: string) {
  if (pathname.startsWith('/account') && !session.accessToken()) return; // it will send them to sign in
  for (const { preload } of screensToPreload(pathname)) preload?.();
}

/**
 * The screen modules of `pathname` by the address table, each with its preload. The table, not
 * matchRoutes: ranking the route tree took a slow phone ~30 ms at start, and React Router ranks it again
 * for the first render. router.test.ts holds the table to the routes.
 */
export function screensToPreload(pathname: string) {
  const pattern = addressPattern(pathname, Object.keys(SCREEN_ADDRESSES));
  return (pattern ? SCREEN_ADDRESSES[pattern]! : []).map((module) => ({ module, preload: preloadOf.get(module) }));
}

function handlesAt(pathname: string): LazyScreen['handle'][] {
  return (matchRoutes(screens, pathname) ?? []).flatMap((m) => (m.route.handle as LazyScreen['handle']) ?? []);
}

/** The screen modules the router loads for `pathname`, layout first (what screen-addresses.ts must say). */
export function screenModulesAt(pathname: string): string[] {
  return handlesAt(pathname).flatMap((handle) => handle.modules);
}

/** Every address pattern of the router, e.g. `/account/addresses/:id`. */
export function addressPatterns(routeList: RouteObject[] = screens, parent = ''): string[] {
  return routeList.flatMap((route) => {
    const own = route.path ?? '';
    const path = route.index || !own ? parent : own.startsWith('/') || own === '*' ? own : `${parent}/${own}`;
    return route.children ? addressPatterns(route.children, path) : [path];
  });
}

function Screens() {
  return useRoutes(screens);
}

/**
 * The screens in React Router's declarative mode: the app loads no data through the router, and its
 * data mode weighs about 15 KiB more on every route (decision 0016).
 */
export function AppRoutes() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary pathname={pathname}>
      <Screens />
    </RouteErrorBoundary>
  );
}
