import { lazy, useState } from 'react';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ClinicVisit } from '@kutu/contract';
import { ClinicRecords } from '../components/ClinicRecords.tsx';
import { SavedVisitResult, VisitResult } from '../components/VisitResult.tsx';
import { Deferred } from '../../../components/OnDemand.tsx';
// Its strings come with it, not with a farmer's screens (lib/locale-parts.ts); the router waits for them.
export { screenStringsReady } from '../../../lib/staff-strings.ts';

// The form brings the contract's schemas, the phone input's metadata and the photo shrinker: it loads just
// after the screen (the records tab needs none of them), as other forms do (components/OnDemand.tsx).
const VisitForm = lazy(() => import('../components/VisitForm.tsx').then((m) => ({ default: m.VisitForm })));
/** Plant clinic (docs/decisions/0053): a visit for a farmer without a smartphone, and the clinic's records. */
export default function ClinicPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('visit');
  const [visit, setVisit] = useState<ClinicVisit | null>(null);
  /** A visit opened from the records (not answered yet): finished on the visit tab. */
  const [opened, setOpened] = useState<number | null>(null);
  const open = (id: number) => {
    setVisit(null);
    setOpened(id);
    setTab('visit');
  };
  return (
    <Stack gap="md" maw={640}>
      <Title order={1} size="h2">
        {t('clinic.title')}
      </Title>
      <Text size="sm">{t('clinic.intro')}</Text>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List grow>
          <Tabs.Tab value="visit">{t('clinic.tabs.visit')}</Tabs.Tab>
          <Tabs.Tab value="records">{t('clinic.tabs.records')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="visit" pt="md">
          {visit ? (
            <VisitResult visit={visit} onDone={() => setVisit(null)} />
          ) : opened !== null ? (
            <SavedVisitResult key={opened} id={opened} onDone={() => setOpened(null)} />
          ) : (
            <Deferred>
              <VisitForm onRecorded={setVisit} />
            </Deferred>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="records" pt="md">
          <ClinicRecords onOpen={open} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
