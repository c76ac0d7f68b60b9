import { lazy } from 'react';
import { Alert, Box, Center, Loader, Stack, Tabs, Title } from '@mantine/core';
import { IconId, IconKey, IconShieldLock, IconUserCheck } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/use-session.ts';
import { useMe } from '../../../api/profile.ts';
import { AccountSummary } from '../components/AccountSummary.tsx';
import { OfflineCard } from '../../../components/offline/OfflineCard.tsx';
import { DataUsageCard } from '../../../components/offline/DataUsageCard.tsx';
import { LanguageSwitch } from '../../../components/LanguageSwitch/LanguageSwitch.tsx';
import { Deferred } from '../../../components/OnDemand.tsx';

// The forms bring the contract's schemas (zod): each loads when its tab opens.
const ChangePasswordForm = lazy(() =>
  import('../components/ChangePasswordForm.tsx').then((m) => ({ default: m.ChangePasswordForm })),
);
// Outbreak alerts (decision 0032): the district list and picker load after the summary.
const OutbreakSettingsCard = lazy(() =>
  import('../../../components/outbreak/OutbreakSettings.tsx').then((m) => ({ default: m.OutbreakSettingsCard })),
);
// My data (archive, consents, deleting the account): loads when its tab opens.
const MyDataCard = lazy(() => import('../components/MyDataCard.tsx').then((m) => ({ default: m.MyDataCard })));
const DeleteAccountCard = lazy(() =>
  import('../components/DeleteAccountCard.tsx').then((m) => ({ default: m.DeleteAccountCard })),
);
// Only an account without an email shows it; it brings the form library (decision 0077).
const AddEmailCard = lazy(() => import('../components/AddEmailCard.tsx').then((m) => ({ default: m.AddEmailCard })));
const CompleteProfileForm = lazy(() =>
  import('../components/CompleteProfileForm.tsx').then((m) => ({ default: m.CompleteProfileForm })),
);

type Tab = 'complete' | 'summary' | 'password' | 'data';

/**
 * Profile: Account Summary, Complete Profile (only while the account is incomplete), Change Password,
 * My data (the archive of everything held, consent choices, deleting the account; not for administrators).
 * A farmer always opens on the summary, with the district and SMS alerts a farmer needs; the ID and
 * birth date of Complete Profile are offered after it, as optional. An expert (whose details an
 * administrator vets) opens on Complete Profile while incomplete. `?tab=` picks one.
 */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const current = me.data ?? user;
  const complete = current?.accountComplete ?? false;
  const farmer = current?.role === 'farmer';
  const asked = params.get('tab') as Tab | null;
  const tab: Tab =
    asked === 'summary' ||
    asked === 'password' ||
    (asked === 'data' && current?.role !== 'admin') ||
    (asked === 'complete' && !complete)
      ? asked
      : complete || farmer
        ? 'summary'
        : 'complete';
  const outbreakSettings = current ? (
    <Box mt="md" mb="md">
      <Deferred>
        <OutbreakSettingsCard user={current} />
      </Deferred>
    </Box>
  ) : null;
  const completeTab = !complete ? (
    <Tabs.Tab value="complete" leftSection={<IconId size={16} />}>
      {t(farmer ? 'profile.tabs.completeOptional' : 'profile.tabs.complete')}
    </Tabs.Tab>
  ) : null;
  const select = (next: string | null) => {
    if (next) setParams((p) => ({ ...Object.fromEntries(p), tab: next }), { replace: true });
  };

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('profile.title')}
      </Title>
      <LanguageSwitch label={t('profile.language')} description={t('profile.languageHint')} />
      {!current ? (
        <Center p="xl">
          <Loader />
        </Center>
      ) : (
        <Tabs value={tab} onChange={select} keepMounted={false}>
          <Tabs.List mb="md">
            {farmer ? null : completeTab}
            <Tabs.Tab value="summary" leftSection={<IconUserCheck size={16} />}>
              {t('profile.tabs.summary')}
            </Tabs.Tab>
            {farmer ? completeTab : null}
            <Tabs.Tab value="password" leftSection={<IconKey size={16} />}>
              {t('profile.tabs.password')}
            </Tabs.Tab>
            {current.role === 'admin' ? null : (
              <Tabs.Tab value="data" leftSection={<IconShieldLock size={16} />}>
                {t('profile.privacy.tab')}
              </Tabs.Tab>
            )}
          </Tabs.List>
          {!complete ? (
            <Tabs.Panel value="complete">
              <Alert color="blue" mb="md">
                {t(farmer ? 'profile.incompleteOptional' : 'profile.incomplete')}
              </Alert>
              <Deferred>
                <CompleteProfileForm user={current} onDone={() => select('summary')} />
              </Deferred>
            </Tabs.Panel>
          ) : null}
          <Tabs.Panel value="summary">
            {/* A farmer's own settings (district, SMS alerts) come first, above the account's record. */}
            {farmer && outbreakSettings}
            {current.email === null ? (
              <Deferred>
                <AddEmailCard />
              </Deferred>
            ) : null}
            <AccountSummary user={current} stale={me.isError} />
            {!farmer && outbreakSettings}
            {current.role === 'farmer' && (
              <Box mt="md" maw={560}>
                <OfflineCard />
              </Box>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="password">
            <Deferred>
              <ChangePasswordForm userInputs={[current.email ?? current.phone, current.username]} />
            </Deferred>
          </Tabs.Panel>
          <Tabs.Panel value="data">
            <Deferred>
              <Stack>
                <MyDataCard />
                <DeleteAccountCard hasPassword={current?.account.hasPassword ?? true} />
              </Stack>
            </Deferred>
          </Tabs.Panel>
        </Tabs>
      )}
      {/* What Kutu keeps on this phone, whatever the tab (docs/decisions/0037). */}
      <Box maw={560}>
        <DataUsageCard />
      </Box>
    </Stack>
  );
}
