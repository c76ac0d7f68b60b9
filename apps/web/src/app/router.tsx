import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { Center, Loader } from '@mantine/core';
import type { Role } from '@kutu/contract';
import { RouteErrorBoundary } from './RouteError.tsx';
import { RedirectIfSignedIn, RequireAuth, RoleOnly } from './guards.tsx';
import { routes } from './routes.ts';

function lazyElement(load: () => Promise<{ default: ComponentType }>): ReactNode {
  const Lazy = lazy(load);
  return (
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
}

function page(load: () => Promise<{ default: ComponentType }>, role?: Role): ReactNode {
  const content = lazyElement(load);
  return role ? <RoleOnly role={role}>{content}</RoleOnly> : content;
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

/** The route table of spec point 2, with its broken links pointed at real screens. */
const screens: RouteObject[] = [
  { path: '/', element: <Navigate to={routes.auth.login} replace /> },
  {
    path: '/auth',
    element: <RedirectIfSignedIn>{authLayout}</RedirectIfSignedIn>,
    children: [
      { index: true, element: page(() => import('../features/auth/pages/LoginPage.tsx')) },
      { path: 'forgot-password', element: page(() => import('../features/auth/pages/ForgotPasswordPage.tsx')) },
      { path: 'activation', element: page(() => import('../features/auth/pages/ActivationPage.tsx')) },
      { path: 'signup', element: page(() => import('../features/auth/pages/FarmerSignupPage.tsx')) },
      { path: 'expert-signup', element: page(() => import('../features/auth/pages/ExpertSignupPage.tsx')) },
      { path: 'verify-email', element: page(() => import('../features/auth/pages/VerifyEmailPage.tsx')) },
      {
        path: 'confirm-password-reset',
        element: page(() => import('../features/auth/pages/ConfirmPasswordResetPage.tsx')),
      },
    ],
  },
  {
    path: '/account',
    element: <RequireAuth>{accountLayout}</RequireAuth>,
    children: [
      { index: true, element: page(() => import('../features/dashboard/pages/DashboardPage.tsx')) },
      { path: 'settings', element: <Navigate to={routes.profile} replace /> },
      { path: 'profile', element: page(() => import('../features/profile/pages/ProfilePage.tsx')) },
      {
        path: 'addresses',
        children: [
          {
            path: 'image-analysis',
            element: page(() => import('../features/analysis/pages/UploadImagePage.tsx'), 'farmer'),
          },
          {
            path: 'analysis-history',
            element: page(() => import('../features/analysis/pages/AnalysisHistoryPage.tsx'), 'farmer'),
          },
          {
            path: 'education-resources',
            element: page(() => import('../features/analysis/pages/EducationResourcesPage.tsx')),
          },
          {
            path: 'model-training',
            element: page(() => import('../features/training/pages/ModelTrainingPage.tsx'), 'expert'),
          },
          {
            path: 'review-queue',
            element: page(() => import('../features/review/pages/ReviewQueuePage.tsx'), 'expert'),
          },
          {
            path: 'all-posts',
            element: page(() => import('../features/community/pages/AllPostsPage.tsx'), 'expert'),
          },
          {
            path: 'community-posts',
            element: page(() => import('../features/community/pages/MakePostPage.tsx'), 'farmer'),
          },
          {
            path: 'availability-slots',
            element: page(() => import('../features/consultations/pages/CreateSlotPage.tsx'), 'expert'),
          },
          { path: 'slots', element: page(() => import('../features/consultations/pages/SlotsPage.tsx'), 'farmer') },
          {
            path: 'my-bookings',
            element: page(() => import('../features/consultations/pages/MyBookingsPage.tsx'), 'farmer'),
          },
          {
            path: 'bookings',
            element: page(() => import('../features/consultations/pages/BookingsPage.tsx'), 'expert'),
          },
          { path: ':id', element: page(() => import('../features/community/pages/PostCommentsPage.tsx'), 'expert') },
        ],
      },
    ],
  },
  { path: '/terms', element: page(() => import('../features/static/pages/TermsPage.tsx')) },
  { path: '/contact-us', element: page(() => import('../features/static/pages/ContactPage.tsx')) },
  { path: '/signup', element: <Navigate to={routes.auth.signup} replace /> },
  { path: '/dashboard', element: <Navigate to={routes.dashboard} replace /> },
  { path: '/experts', element: <Navigate to={routes.slots} replace /> },
  { path: '*', element: page(() => import('../features/static/pages/NotFoundPage.tsx')) },
];

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
