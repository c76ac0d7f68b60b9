import { type Dispatch, lazy, memo, type SetStateAction, Suspense, useEffect, useState } from 'react';
import { ActionIcon, AppShell, Badge, Burger, Button, Card, Group, NavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconChevronsLeft, IconChevronsRight, IconLogout } from '@tabler/icons-react';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Link, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Role, UserRecord } from '@kutu/contract';
import { queryClient } from '../../lib/query-client.ts';
import { LANGUAGE_KEY } from '../../lib/language.ts';
import { session } from '../../lib/session.ts';
import { useSession, useSessionField } from '../../lib/use-session.ts';
import { PHONE_QUERY } from '../../config/theme.ts';
import { pendingCountQuery } from '../../api/community.ts';
import { notificationsQuery } from '../../api/notifications.ts';
import { meQuery, revokeSession } from '../../api/me.ts';
import { menuForRole, type MenuLink } from './menu.ts';
import { HeaderExtras } from './HeaderExtras.tsx';
import { OfflineDataBanner, useSavedQueries } from './SavedData.tsx';
import { routes } from '../../config/routes.ts';
import { optionalLazy } from '../../components/optional-lazy.ts';
import initialClasses from './UserInitial.module.css';

/**
 * A farmer's offline upkeep (it draws nothing and waits for the screen to settle): loaded beside the
 * screen, not with it, so the offline queue, the model's download and their API modules stay out of
 * every account screen's first download (decision 0121). Offline, without its code, it is left out.
 */
const OfflineSync = optionalLazy<object>(() => import('./OfflineSync.tsx').then((m) => ({ default: m.OfflineSync })));

// The one-time district question's form (outbreak alerts go by district, decision 0032): loaded on the farmer's "Choose".
const DistrictPromptCard = lazy(() =>
  import('../../components/outbreak/OutbreakSettings.tsx').then((m) => ({ default: m.DistrictPromptCard })),
);
/** `districtPromptSeen:<user id>`: this farmer put the question away on this phone (kept through logout). */
const PROMPT_SEEN = 'districtPromptSeen';
import { ExpertWaiting } from './ExpertWaiting.tsx';

// With the shell's chunk: the account screens' strings (the router waits for them).
export { accountStringsReady } from '../../lib/account-strings.ts';

/** Logout revokes the refresh token, clears local storage (tokens and the saved offline copy) and reloads. */
export async function logout() {
  const refresh = session.refreshToken();
  if (refresh) await revokeSession(refresh);
  // The language stays: the sign-in screen (and the next user of a shared phone) keeps reading it.
  const language = localStorage.getItem(LANGUAGE_KEY);
  const seen = Object.keys(localStorage).filter((key) => key.startsWith(`${PROMPT_SEEN}:`));
  localStorage.clear();
  if (language) localStorage.setItem(LANGUAGE_KEY, language);
  for (const key of seen) localStorage.setItem(key, '1');
  window.location.assign('/auth');
}

/** The shell's own queries, started with its code (router.tsx). */
export function startQueries() {
  void queryClient.prefetchQuery(meQuery);
  void queryClient.prefetchInfiniteQuery(notificationsQuery());
  if (isApprovedExpert(session.user())) void queryClient.prefetchQuery(pendingCountQuery(true));
}

/**
 * An expert account waits for an administrator (docs/decisions/0027): 'waiting' until approved. A
 * profile stored before vetting existed has no `vetting` field; the server's answer (SessionCheck)
 * brings it, and meanwhile the server refuses what a waiting expert must not do.
 */
function vettingOf(user: UserRecord | null): 'waiting' | 'refused' | null {
  if (user?.role !== 'expert' || !user.vetting || user.vetting.status === 'approved') return null;
  return user.vetting.status === 'refused' ? 'refused' : 'waiting';
}
const isApprovedExpert = (user: UserRecord | null) => user?.role === 'expert' && vettingOf(user) === null;

export function AccountLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Shell />
    </QueryClientProvider>
  );
}

/**
 * The account screens' frame. It subscribes to no query and to no part of the stored profile: React
 * renders such updates at once, in one task, and everything the shell renders (the screen included)
 * would render again with it. The small parts that show that data subscribe themselves (SessionCheck,
 * UserBadge, NavMenu's badge, HeaderExtras), so the data's arrival redraws only them (decision 0016).
 */
function Shell() {
  const { t } = useTranslation();
  const role = useSessionField((user) => user?.role ?? null);
  const userId = useSessionField((user) => user?.id ?? null);
  const vetting = useSessionField(vettingOf);
  const location = useLocation();
  const [mobileOpen, { toggle: toggleMobile, close: closeMobile }] = useDisclosure(false);
  // On a phone every screen starts with the drawer closed: its menu (some 100 of the screen's 270 elements)
  // is built when it is first opened (decision 0016), and the closed drawer is inert, so no key reaches a link
  // that is off the screen.
  const drawerMenu = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  const [drawerBuilt, setDrawerBuilt] = useState(false);
  if (mobileOpen && !drawerBuilt) setDrawerBuilt(true);
  const [narrow, setNarrow] = useState(false);
  const entries = menuForRole(role, vetting !== null);
  const activeGroup = entries.find((e) => e.children?.some((c) => location.pathname.startsWith(c.to)))?.labelKey;
  const [openGroup, setOpenGroup] = useState<string | undefined>(activeGroup);
  useSavedQueries(userId ?? undefined);

  // Close the mobile menu after navigating.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on path change by design
  useEffect(() => closeMobile(), [location.pathname, closeMobile]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: narrow ? 72 : 260, breakpoint: 'sm', collapsed: { mobile: !mobileOpen } }}
      padding="md"
    >
      <SessionCheck />
      {role === 'farmer' && (
        <Suspense fallback={null}>
          <OfflineSync.Component />
        </Suspense>
      )}
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Burger opened={mobileOpen} onClick={toggleMobile} hiddenFrom="sm" size="sm" aria-label={t('menu.open')} />
            <img src="/favicon.svg" width={28} height={28} alt="" />
            <Text fw={700} style={{ flexShrink: 0 }}>
              {t('app.name')}
            </Text>
            <Text size="sm" c="dimmed" visibleFrom="md">
              {t('app.tagline')}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <HeaderExtras />
            <UserBadge />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('menu.main')} inert={drawerMenu && !mobileOpen}>
        {(!drawerMenu || drawerBuilt) && (
          <NavMenu
            role={role}
            waiting={vetting !== null}
            pathname={location.pathname}
            narrow={narrow}
            setNarrow={setNarrow}
            openGroup={openGroup}
            setOpenGroup={setOpenGroup}
          />
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        <OfflineDataBanner />
        {location.pathname === routes.dashboard && vetting === null && <DistrictPrompt />}
        {vetting !== null && location.pathname !== routes.profile ? <Waiting /> : <Outlet />}
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * Asks a farmer with no district for one, once (for outbreak alerts); its own subscription to the stored
 * profile. The question and its two buttons draw at once; the district form (a country switch, a search
 * and a list of some 135 districts) loads on "Choose": built with the dashboard, it was the longest task
 * of a slow phone's start (decision 0016).
 */
function DistrictPrompt() {
  const { t } = useTranslation();
  const userId = useSessionField((user) => (user?.role === 'farmer' && user.needsDistrict ? user.id : null));
  // The farm location typed at sign-up ("Mbale"): the district it names is offered.
  const farmLocation = useSessionField((user) => user?.farmer?.farm_location ?? null) ?? undefined;
  const [closed, setClosed] = useState(false);
  const [choosing, setChoosing] = useState(false);
  if (userId === null || closed || localStorage.getItem(`${PROMPT_SEEN}:${userId}`)) return null;
  const close = () => {
    localStorage.setItem(`${PROMPT_SEEN}:${userId}`, '1');
    setClosed(true);
  };
  const question = (
    <Card withBorder padding="md" mb="md" maw={640} data-testid="district-prompt" aria-busy={choosing || undefined}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('profile.outbreak.promptTitle')}
        </Title>
        <Text size="sm">{t('profile.outbreak.promptText')}</Text>
        <Group gap="sm">
          <Button onClick={() => setChoosing(true)} loading={choosing}>
            {t('profile.outbreak.promptChoose')}
          </Button>
          <Button variant="subtle" onClick={close}>
            {t('profile.outbreak.promptLater')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
  if (!choosing) return question;
  return (
    <Suspense fallback={question}>
      <DistrictPromptCard farmLocation={farmLocation} onClose={close} />
    </Suspense>
  );
}

/** Checks the stored session with the server and keeps the stored profile up to date. */
function SessionCheck() {
  const me = useQuery(meQuery);
  useEffect(() => {
    if (me.data) session.setUser(me.data);
  }, [me.data]);
  return null;
}

/** The waiting expert's screen, with a button that asks the server again (the shell's `me` query). */
function Waiting() {
  const { user } = useSession();
  const me = useQuery(meQuery);
  if (!user?.vetting) return null;
  return <ExpertWaiting vetting={user.vetting} onCheck={() => void me.refetch()} checking={me.isFetching} />;
}

/** The signed-in user's name and initial in the top bar. */
function UserBadge() {
  const { t } = useTranslation();
  const { user } = useSession();
  return (
    <>
      {/* Not on a phone: beside the app's name, the language switch and the bell it left "Kutu" cut to "Ku". */}
      <Text size="sm" truncate="end" maw={200} visibleFrom="sm" data-testid="topbar-username">
        {user?.username ?? t('menu.userFallback')}
      </Text>
      {/* Never squeezed by the language switch and the bell on a phone at 390 px. */}
      <div className={initialClasses.initial} title={user?.username} data-testid="topbar-avatar">
        {(user?.username ?? 'u').charAt(0).toUpperCase()}
      </div>
    </>
  );
}

interface NavMenuProps {
  role: Role | null;
  /** An expert waiting for vetting: only the profile. */
  waiting: boolean;
  pathname: string;
  narrow: boolean;
  setNarrow: Dispatch<SetStateAction<boolean>>;
  openGroup: string | undefined;
  setOpenGroup: Dispatch<SetStateAction<string | undefined>>;
}

/**
 * The side menu, memoised: the shell renders again as the phone's drawer opens and closes, and on a slow
 * phone rebuilding some twenty links and their labels each time made those renders long (decision 0016). Its
 * badge's count is its own subscription.
 */
const NavMenu = memo(function NavMenu({
  role,
  waiting,
  pathname,
  narrow,
  setNarrow,
  openGroup,
  setOpenGroup,
}: NavMenuProps) {
  const { t } = useTranslation();
  const pending = useQuery(pendingCountQuery(role === 'expert' && !waiting)).data?.total ?? 0;
  const entries = menuForRole(role, waiting);
  const badges: Record<NonNullable<MenuLink['badge']>, number> = { pendingModeration: pending };
  const badgeOf = (links: MenuLink[] = []) => links.reduce((n, l) => n + (l.badge ? badges[l.badge] : 0), 0);
  const countBadge = (n: number) =>
    n > 0 ? (
      <Badge
        size="sm"
        circle={n < 10}
        color="red"
        aria-label={t('menu.waiting', { count: n })}
        data-testid="menu-badge"
      >
        {n > 99 ? '99+' : n}
      </Badge>
    ) : undefined;
  return (
    <>
      <AppShell.Section grow style={{ overflowY: 'auto' }}>
        {entries.map((entry) => {
          const Icon = entry.icon;
          const label = t(entry.labelKey);
          if (entry.to) {
            return (
              // The browser's own tooltip names an icon of the narrow menu (Mantine's Tooltip would
              // bring its positioning library to every signed-in screen, decision 0016).
              <NavLink
                key={entry.labelKey}
                component={Link}
                to={entry.to}
                label={narrow ? undefined : label}
                aria-label={label}
                title={narrow ? label : undefined}
                leftSection={<Icon size={20} />}
                active={pathname === entry.to}
              />
            );
          }
          return (
            <NavLink
              key={entry.labelKey}
              component="button"
              type="button"
              aria-expanded={openGroup === entry.labelKey}
              label={narrow ? undefined : label}
              aria-label={label}
              leftSection={<Icon size={20} />}
              rightSection={openGroup === entry.labelKey || narrow ? undefined : countBadge(badgeOf(entry.children))}
              opened={openGroup === entry.labelKey}
              onChange={(opened) => {
                setOpenGroup(opened ? entry.labelKey : undefined);
                if (narrow) setNarrow(false);
              }}
              childrenOffset={narrow ? 0 : 28}
            >
              {entry.children?.map((child) => (
                <NavLink
                  key={child.to}
                  component={Link}
                  to={child.to}
                  label={t(child.labelKey)}
                  rightSection={child.badge ? countBadge(badges[child.badge]) : undefined}
                  active={pathname === child.to}
                />
              ))}
            </NavLink>
          );
        })}
      </AppShell.Section>
      <AppShell.Section>
        <NavLink
          component="button"
          type="button"
          label={narrow ? undefined : t('menu.logout')}
          aria-label={t('menu.logout')}
          leftSection={<IconLogout size={20} />}
          onClick={() => void logout()}
          color="red"
        />
        <Group justify={narrow ? 'center' : 'flex-end'} visibleFrom="sm">
          <ActionIcon
            variant="subtle"
            onClick={() => setNarrow((n) => !n)}
            aria-label={narrow ? t('menu.expand') : t('menu.collapse')}
          >
            {narrow ? <IconChevronsRight size={18} /> : <IconChevronsLeft size={18} />}
          </ActionIcon>
        </Group>
      </AppShell.Section>
    </>
  );
});
