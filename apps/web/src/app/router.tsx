import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { matchRoutes, Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { Center, Loader } from '@mantine/core';
import type { Role } from '@kutu/contract';
import { RouteErrorBoundary } from './RouteError.tsx';
import { RedirectIfSignedIn, RequireAuth, RoleOnly } from './guards.tsx';
import { session } from '../lib/session.ts';
import { routes } from './routes.ts';

type Load = () => Promise<{ default: ComponentType }>;
/** A lazily loaded screen part, and a way to start its download before React asks for it. */
interface LazyScreen {
  element: ReactNode;
  handle: { preload: () => void };
}

function lazyElement(load: Load): LazyScreen {
  let loading: ReturnType<Load> | undefined;
  const loadOnce = () => (loading ??= load());
  const Lazy = lazy(loadOnce);
  const element = (
    <Suspense
      fallback={
        <Center p="xl">
          <Loader />
        </Center>
      }
    >
      <Lazy />
    </Suspense>
  );
  return { element, handle: { preload: () => void loadOnce().catch(() => {}) } };
}

function page(load: Load, role?: Role): LazyScreen {
  const screen = lazyElement(load);
  return role ? { ...screen, element: <RoleOnly role={role}>{screen.element}</RoleOnly> } : screen;
}

// The layouts load with their first page: the sign-in screen does not download the account shell.
const authLayout = lazyElement(() =>
  import('../components/layout/AuthLayout.tsx').then((m) => ({ default: m.AuthLayout })),
);
// The account shell shows once its strings are in (lib/account-strings.ts), never their keys.
const accountLayout = lazyElement(() =>
  import('../components/layout/AccountLayout.tsx').then(async (m) => {
    await m.accountStringsReady;
    return { default: m.AccountLayout };
  }),
);

const signIn = page(() => import('../features/auth/pages/LoginPage.tsx'));

/** The route table of spec point 2, with its broken links pointed at real screens. */
const screens: RouteObject[] = [
  {
    path: '/',
    element: <Navigate to={routes.auth.login} replace />,
    handle: {
      preload: () => {
        authLayout.handle.preload();
        signIn.handle.preload();
      },
    },
  },
  {
    path: '/auth',
    element: <RedirectIfSignedIn>{authLayout.element}</RedirectIfSignedIn>,
    handle: authLayout.handle,
    children: [
      { index: true, ...signIn },
      { path: 'forgot-password', ...page(() => import('../features/auth/pages/ForgotPasswordPage.tsx')) },
      { path: 'activation', ...page(() => import('../features/auth/pages/ActivationPage.tsx')) },
      { path: 'signup', ...page(() => import('../features/auth/pages/FarmerSignupPage.tsx')) },
      { path: 'expert-signup', ...page(() => import('../features/auth/pages/ExpertSignupPage.tsx')) },
      { path: 'verify-email', ...page(() => import('../features/auth/pages/VerifyEmailPage.tsx')) },
      {
        path: 'confirm-password-reset',
        ...page(() => import('../features/auth/pages/ConfirmPasswordResetPage.tsx')),
      },
    ],
  },
  {
    path: '/account',
    element: <RequireAuth>{accountLayout.element}</RequireAuth>,
    handle: accountLayout.handle,
    children: [
      { index: true, ...page(() => import('../features/dashboard/pages/DashboardPage.tsx')) },
      { path: 'settings', element: <Navigate to={routes.profile} replace /> },
      { path: 'profile', ...page(() => import('../features/profile/pages/ProfilePage.tsx')) },
      {
        path: 'addresses',
        children: [
          {
            path: 'image-analysis',
            ...page(() => import('../features/analysis/pages/UploadImagePage.tsx'), 'farmer'),
          },
          {
            path: 'analysis-history',
            ...page(() => import('../features/analysis/pages/AnalysisHistoryPage.tsx'), 'farmer'),
          },
          {
            path: 'education-resources',
            ...page(() => import('../features/analysis/pages/EducationResourcesPage.tsx')),
          },
          {
            path: 'model-training',
            ...page(() => import('../features/training/pages/ModelTrainingPage.tsx'), 'expert'),
          },
          {
            path: 'review-queue',
            ...page(() => import('../features/review/pages/ReviewQueuePage.tsx'), 'expert'),
          },
          {
            path: 'all-posts',
            ...page(() => import('../features/community/pages/AllPostsPage.tsx'), 'expert'),
          },
          {
            path: 'community-posts',
            ...page(() => import('../features/community/pages/MakePostPage.tsx'), 'farmer'),
          },
          {
            path: 'availability-slots',
            ...page(() => import('../features/consultations/pages/CreateSlotPage.tsx'), 'expert'),
          },
          { path: 'slots', ...page(() => import('../features/consultations/pages/SlotsPage.tsx'), 'farmer') },
          {
            path: 'my-bookings',
            ...page(() => import('../features/consultations/pages/MyBookingsPage.tsx'), 'farmer'),
          },
          {
            path: 'bookings',
            ...page(() => import('../features/consultations/pages/BookingsPage.tsx'), 'expert'),
          },
          { path: ':id', ...page(() => import('../features/community/pages/PostCommentsPage.tsx'), 'expert') },
        ],
      },
    ],
  },
  { path: '/terms', ...page(() => import('../features/static/pages/TermsPage.tsx')) },
  { path: '/contact-us', ...page(() => import('../features/static/pages/ContactPage.tsx')) },
  { path: '/signup', element: <Navigate to={routes.auth.signup} replace /> },
  { path: '/dashboard', element: <Navigate to={routes.dashboard} replace /> },
  { path: '/experts', element: <Navigate to={routes.slots} replace /> },
  { path: '*', ...page(() => import('../features/static/pages/NotFoundPage.tsx')) },
];

/**
 * Starts downloading the layout and the page of `pathname` together, before the first render; React
 * would otherwise ask for the page only once the layout has arrived, one round trip later (issue 13).
 */
export function preloadScreen(pathname: string) {
  if (pathname.startsWith('/account') && !session.accessToken()) return; // it will send them to sign in
  for (const match of matchRoutes(screens, pathname) ?? []) {
    (match.route.handle as LazyScreen['handle'] | undefined)?.preload();
  }
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
