import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Card, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import type { VettingStatus } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { type ApplicantKind, type Application, useApplications, useDecide } from '../../../api/applications.ts';
import { FittingSegmentedControl } from '../../../components/FittingSegmentedControl.tsx';
// The administrator's cards below the applications load after the screen (its byte budget).
const FailedMessages = lazy(() =>
  import('../components/FailedMessages.tsx').then((m) => ({ default: m.FailedMessages })),
);
const Backups = lazy(() => import('../components/Backups.tsx').then((m) => ({ default: m.Backups })));
const ErasureLog = lazy(() => import('../components/ErasureLog.tsx').then((m) => ({ default: m.ErasureLog })));
// Kutu's live field figures and the retraining gate's held-back photos (docs/decisions/0086).
const FieldFigures = lazy(() =>
  import('../../../components/staff/FieldFigures.tsx').then((m) => ({ default: m.FieldFigures })),
);
// The refusal dialog loads on the first "Refuse".
/**
 * The national bulletin's files and an officer's national switch (decision 0122), with their strings (the
 * officer part's bulletin strings): loaded after the page, never with it.
 */
const bulletin = () =>
  Promise.all([
    import('../../../components/staff/Bulletin.tsx'),
    import('../../../lib/officer-strings.ts').then((m) => m.screenStringsReady),
  ]).then(([m]) => m);
const BulletinDownloads = lazy(() => bulletin().then((m) => ({ default: m.BulletinDownloads })));
const NationalSwitch = lazy(() => bulletin().then((m) => ({ default: m.NationalSwitch })));
const RefuseDialog = lazy(() => import('../components/RefuseDialog.tsx').then((m) => ({ default: m.RefuseDialog })));
// Its strings come with it, not with a farmer's screens (lib/locale-parts.ts); the router waits for them.
export { screenStringsReady } from '../../../lib/staff-strings.ts';

const PAGE_SIZE = 10;
const STATUS_COLOR: Record<VettingStatus, string> = { pending: 'yellow', approved: 'green', refused: 'red' };

export function StatusBadge({ status }: { status: VettingStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light">
      {t(`vetting.status.${status}`)}
    </Badge>
  );
}

function Line({ label, value }: { label: string; value: string | number }) {
  if (value === '') return null;
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span fw={600} size="sm">
        {label}:{' '}
      </Text>
      {value}
    </Text>
  );
}

/** What the applicant said: an expert's expertise, or an officer's office and districts. */
function Details({ application: a }: { application: Application }) {
  const { t } = useTranslation();
  if (a.role === 'expert') {
    return (
      <>
        <Line label={t('vetting.admin.areas')} value={a.expert.areas_of_expertise} />
        <Line label={t('vetting.admin.certifications')} value={a.expert.certifications} />
        <Line label={t('vetting.admin.institution')} value={a.expert.institution} />
        <Line label={t('vetting.admin.experience')} value={a.expert.experience_years} />
        <Line label={t('vetting.admin.languages')} value={a.expert.languages_spoken} />
        <Line label={t('vetting.admin.links')} value={a.expert.social_links} />
        <Line label={t('vetting.admin.bio')} value={a.expert.bio} />
      </>
    );
  }
  return (
    <>
      <Line label={t('vetting.admin.office')} value={a.officer.office} />
      <Line label={t('vetting.admin.districts')} value={a.officer.districts.map((d) => d.name).join(', ')} />
    </>
  );
}

function ApplicationCard({
  application: a,
  onApprove,
  onRefuse,
  onWithdraw,
  busy,
}: {
  application: Application;
  onApprove: () => void;
  onRefuse: () => void;
  /** Only officers' approvals are withdrawn (they leave their office). */
  onWithdraw?: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={a.username}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Text fw={700} truncate="end">
          {a.username}
        </Text>
        <StatusBadge status={a.status} />
      </Group>
      <Stack gap={4}>
        <Line label={t('vetting.admin.email')} value={a.email ?? ''} />
        <Line label={t('vetting.admin.phone')} value={a.phone} />
        <Line label={t('vetting.admin.applied')} value={formatDateTime(a.applied_at)} />
        <Details application={a} />
        {a.decided_at && (
          <Text size="sm" c="dimmed">
            {t('vetting.admin.decided', { when: formatDateTime(a.decided_at), who: a.decided_by ?? '—' })}
          </Text>
        )}
        {a.status === 'refused' && a.reason && <Line label={t('vetting.admin.reason')} value={a.reason} />}
      </Stack>
      {a.status !== 'approved' && (
        <Group mt="md" gap="xs">
          <Button size="sm" color="green" onClick={onApprove} loading={busy}>
            {t('vetting.admin.approve')}
          </Button>
          {a.status === 'pending' && (
            <Button size="sm" color="red" variant="light" onClick={onRefuse} disabled={busy}>
              {t('vetting.admin.refuse')}
            </Button>
          )}
        </Group>
      )}
      {a.role === 'officer' && a.status === 'approved' && (
        <Suspense fallback={null}>
          <NationalSwitch application={a} />
        </Suspense>
      )}
      {a.status === 'approved' && onWithdraw && (
        <Group mt="md" gap="xs">
          <Button size="sm" color="red" variant="light" onClick={onWithdraw} disabled={busy}>
            {t('vetting.admin.withdraw')}
          </Button>
        </Group>
      )}
    </Card>
  );
}

/**
 * The administrator's page ("Administration" in the menu): expert and extension officer applications,
 * pending first, to approve or refuse (docs/decisions/0027; both kinds are vetted the same way), then the
 * messages that could not be sent, the backups and the log of erased accounts.
 */
export default function AdminPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<ApplicantKind>('expert');
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<VettingStatus | null>(null);
  const [refusing, setRefusing] = useState<Application | null>(null);
  const list = useApplications(kind, page, PAGE_SIZE, status);
  const decide = useDecide(kind);
  const approve = (a: Application) =>
    decide.mutate(
      { id: a.id, from: a.status },
      {
        onSuccess: () => notifySuccess(t('vetting.admin.approved', { name: a.username })),
        onError: (err) => notifyError(errorMessage(err)),
      },
    );
  const results = list.data?.results ?? [];
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('vetting.admin.pageTitle')}
      </Title>
      <Text c="dimmed">{t('vetting.admin.pageIntro')}</Text>
      <Title order={2} size="h3">
        {t(kind === 'expert' ? 'vetting.admin.title' : 'vetting.admin.officersTitle')}
      </Title>
      <FittingSegmentedControl
        aria-label={t('vetting.admin.kind')}
        value={kind}
        onChange={(value) => {
          setKind(value as ApplicantKind);
          setPage(1);
        }}
        data={[
          { value: 'expert', label: t('vetting.admin.kinds.expert') },
          { value: 'officer', label: t('vetting.admin.kinds.officer') },
        ]}
      />
      <Text size="sm" c="dimmed">
        {t(kind === 'expert' ? 'vetting.admin.intro' : 'vetting.admin.officersIntro', {
          count: list.data?.pending_count ?? 0,
        })}
      </Text>
      <NativeSelect
        label={t('vetting.admin.show')}
        value={status ?? 'all'}
        onChange={(e) => {
          const value = e.currentTarget.value;
          setStatus(value === 'all' ? null : (value as VettingStatus));
          setPage(1);
        }}
        data={[
          { value: 'all', label: t('vetting.admin.all') },
          { value: 'pending', label: t('vetting.status.pending') },
          { value: 'approved', label: t('vetting.status.approved') },
          { value: 'refused', label: t('vetting.status.refused') },
        ]}
        maw={320}
      />
      <ListState
        query={list}
        errorTitle={t('vetting.admin.failed')}
        empty={results.length === 0}
        emptyText={t('vetting.admin.empty')}
      >
        <Stack gap="sm">
          {results.map((a) => (
            <ApplicationCard
              key={a.id}
              application={a}
              busy={decide.isPending && decide.variables?.id === a.id}
              onApprove={() => approve(a)}
              onRefuse={() => setRefusing(a)}
              onWithdraw={kind === 'officer' ? () => setRefusing(a) : undefined}
            />
          ))}
        </Stack>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={list.data?.count ?? 0} onChange={setPage} />
      </ListState>
      {refusing && (
        <Suspense fallback={null}>
          <RefuseDialog kind={kind} application={refusing} onClose={() => setRefusing(null)} />
        </Suspense>
      )}
      <Suspense fallback={null}>
        <BulletinDownloads />
        <FieldFigures />
        <FailedMessages />
        <Backups />
        <ErasureLog />
      </Suspense>
    </Stack>
  );
}
