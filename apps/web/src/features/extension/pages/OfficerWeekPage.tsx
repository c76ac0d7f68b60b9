import { lazy, Suspense, useState } from 'react';
import { Alert, Badge, Box, Button, Card, Group, NativeSelect, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OfficerWeek } from '@kutu/contract';
import { SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';
import { errorMessage } from '../../../lib/api.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { ListState } from '../../../components/ListState.tsx';
import { downloadReport, useOfficerMe, useWeek } from '../../../api/extension.ts';
import { CropWalks } from '../components/CropWalks.tsx';
import { FarmerToCall } from '../components/FarmerToCall.tsx';
import { HeldWalks } from '../components/HeldWalks.tsx';

/** The national bulletin's files, for a national officer only (decision 0122): loaded when they are one. */
const BulletinDownloads = lazy(() =>
  import('../../../components/staff/Bulletin.tsx').then((m) => ({ default: m.BulletinDownloads })),
);
// Its strings come with it, not with a farmer's screens (lib/locale-parts.ts); the router waits for them.
export { screenStringsReady } from '../../../lib/officer-strings.ts';

/** The Monday `weeks` weeks from `monday`, as YYYY-MM-DD. */
function shift(monday: string, weeks: number): string {
  const d = new Date(`${monday}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 7 * weeks);
  return d.toISOString().slice(0, 10);
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Box>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Box>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

type SentCounts = Pick<OfficerWeek['alerts'][number], 'told' | 'delivered' | 'failed' | 'waiting'>;

/** One alert or advisory of the week: its line, then how many people were told and what became of it. */
function SentRow({ line, counts: c, testId }: { line: React.ReactNode; counts: SentCounts; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} mb="xs" data-testid={testId}>
      <Text size="sm" fw={600}>
        {line}
      </Text>
      <SimpleGrid cols={{ base: 2, xs: 4 }}>
        <Figure label={t('extension.week.told')} value={c.told} />
        <Figure label={t('extension.week.delivered')} value={c.delivered} />
        <Figure label={t('extension.week.failed')} value={c.failed} />
        <Figure label={t('extension.week.waiting')} value={c.waiting} />
      </SimpleGrid>
    </Stack>
  );
}

/** Confirmed cases per week as bars, this week last (the numbers are written under them). */
function Trend({ trend }: { trend: OfficerWeek['crops'][number]['trend'] }) {
  const max = Math.max(1, ...trend.map((w) => w.confirmed));
  return (
    <Group
      gap={4}
      align="flex-end"
      wrap="nowrap"
      role="img"
      aria-label={trend.map((w) => `${w.week}: ${w.confirmed}`).join(', ')}
    >
      {trend.map((w, i) => (
        <Stack key={w.week_start} gap={2} align="center" style={{ flex: 1 }}>
          <Box
            w="100%"
            h={Math.max(2, Math.round((w.confirmed / max) * 48))}
            bg={i === trend.length - 1 ? 'orange.7' : 'gray.5'}
          />
          <Text size="xs">{w.confirmed}</Text>
        </Stack>
      ))}
    </Group>
  );
}

function WeekView({ week: w, several }: { week: OfficerWeek; several: boolean }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<'csv' | 'pdf' | 'all' | null>(null);
  const download = (kind: 'csv' | 'pdf' | 'all') => {
    setBusy(kind);
    downloadReport(kind === 'all' ? null : w.code, w.week_start, kind === 'all' ? 'pdf' : kind)
      .catch((err) => notifyError(errorMessage(err)))
      .finally(() => setBusy(null));
  };
  const findings = Object.entries(w.clinic.findings);
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Button size="sm" variant="light" loading={busy === 'pdf'} onClick={() => download('pdf')}>
          {t('extension.week.pdf')}
        </Button>
        <Button size="sm" variant="light" loading={busy === 'csv'} onClick={() => download('csv')}>
          {t('extension.week.csv')}
        </Button>
        {several && (
          <Button size="sm" variant="light" loading={busy === 'all'} onClick={() => download('all')}>
            {t('extension.week.allPdf')}
          </Button>
        )}
      </Group>
      <Section title={t('extension.week.cases')}>
        <Stack gap="md">
          {w.crops
            .filter((c) => c.crop !== 'other' || c.confirmed > 0 || c.trend.some((x) => x.confirmed > 0))
            .map((c) => (
              <Stack key={c.crop} gap={4}>
                <Group justify="space-between" wrap="wrap">
                  <Text fw={600}>{t(`extension.crops.${c.crop}`)}</Text>
                  <Badge
                    variant="light"
                    color={c.direction === 'rising' ? 'red' : c.direction === 'falling' ? 'green' : 'gray'}
                  >
                    {t(`extension.week.direction.${c.direction}`)}
                  </Badge>
                </Group>
                <Text size="sm">{t('extension.week.confirmed', { count: c.confirmed, reported: c.reported })}</Text>
                <Trend trend={c.trend} />
                <CropWalks walks={c.walks} />
              </Stack>
            ))}
        </Stack>
      </Section>
      {w.next_risk && (
        <Section title={t('extension.week.nextRisk')}>
          <Stack gap={4} data-testid="next-risk">
            {w.next_risk.map((r) => (
              <Group key={r.crop} justify="space-between" wrap="wrap">
                <Text fw={600}>{t(`extension.crops.${r.crop}`)}</Text>
                <Text size="sm">
                  {t(`extension.week.risk.${r.worst}`)}
                  {r.high_days.length > 0 &&
                    ` · ${t('extension.week.highDays', { days: r.high_days.map((d) => formatDate(`${d}T12:00:00Z`, 'UTC')).join(', ') })}`}
                </Text>
              </Group>
            ))}
          </Stack>
        </Section>
      )}
      <Section title={t('extension.week.alerts')}>
        {w.advisories.map((a) => (
          <SentRow
            key={`advisory-${a.crop}-${a.told_at}`}
            testId="advisory"
            counts={a}
            line={t('extension.week.advisoryLine', {
              crop: t(`extension.crops.${a.crop}`),
              day: formatDate(`${a.high_day}T12:00:00Z`, 'UTC'),
              when: formatDateTime(a.told_at),
            })}
          />
        ))}
        {w.alerts.length === 0 && w.advisories.length === 0 ? (
          <Text size="sm">{t('extension.week.noAlert')}</Text>
        ) : (
          w.alerts.map((a) => (
            <SentRow
              key={`${a.crop}-${a.raised_at}`}
              counts={a}
              line={
                <>
                  {t('extension.week.alertLine', {
                    crop: t(`extension.crops.${a.crop}`),
                    when: formatDateTime(a.raised_at),
                  })}
                  {a.ended_at ? ` · ${t('extension.week.alertEnded', { when: formatDateTime(a.ended_at) })}` : ''}
                </>
              }
            />
          ))
        )}
      </Section>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Section title={t('extension.week.clinics')}>
          <Figure label={t('extension.week.visits')} value={w.clinic.visits} />
          {findings.length > 0 && (
            <Text size="sm" mt={4}>
              {findings.map(([k, n]) => `${t(`extension.findings.${k}`)}: ${n}`).join(' · ')}
            </Text>
          )}
        </Section>
        <Section title={t('extension.week.followUps')}>
          <SimpleGrid cols={{ base: 2, xs: 4 }}>
            <Figure label={t('extension.week.better')} value={w.follow_ups.better} />
            <Figure label={t('extension.week.same')} value={w.follow_ups.same} />
            <Figure label={t('extension.week.worse')} value={w.follow_ups.worse} />
            <Figure label={t('extension.week.tooFew')} value={w.follow_ups.too_few} />
          </SimpleGrid>
        </Section>
        <Section title={t('extension.week.queue')}>
          <Figure label={t('extension.week.photosWaiting')} value={w.review.waiting} />
          {w.review.oldest_hours !== null && (
            <Text size="sm" mt={4}>
              {t('extension.week.oldest', { hours: w.review.oldest_hours })}
            </Text>
          )}
        </Section>
      </SimpleGrid>
      <HeldWalks code={w.code} />
      <Section title={t('extension.week.farmers')}>
        <Stack gap="xs">
          {w.farmers.length === 0 ? (
            <Text size="sm">{t('extension.week.noFarmers')}</Text>
          ) : (
            w.farmers.map((f) => <FarmerToCall key={f.farmer_id} code={w.code} farmer={f} />)
          )}
        </Stack>
      </Section>
      <Section title={t('extension.week.neighbours')}>
        <Text size="sm" c="dimmed" mb={4}>
          {t('extension.week.smallCounts', SMALL_COUNT_WORDS)}
        </Text>
        <Stack gap={2}>
          {w.neighbours.map((n) => (
            <Group key={n.code} justify="space-between" wrap="nowrap">
              <Text size="sm">{n.name}</Text>
              <Group gap={4} wrap="nowrap">
                {n.alert && (
                  <Badge color="red" variant="light" size="sm">
                    {t('extension.week.alert')}
                  </Badge>
                )}
                <Text size="sm">
                  {n.confirmed.below_min ? t('extension.week.hiddenCount', SMALL_COUNT_WORDS) : n.confirmed.count}
                </Text>
              </Group>
            </Group>
          ))}
        </Stack>
      </Section>
    </Stack>
  );
}

/** An extension officer's start page: one of their districts, its week at a glance, phone first. */
export default function OfficerWeekPage() {
  const { t } = useTranslation();
  const me = useOfficerMe();
  const [chosen, setChosen] = useState<string | null>(null);
  const [day, setDay] = useState<string | null>(null);
  const districts = me.data?.status === 'approved' ? me.data.districts : [];
  const code = chosen ?? districts[0]?.code ?? null;
  const week = useWeek(code, day);
  if (me.data && me.data.status !== 'approved') {
    return (
      <Alert color={me.data.status === 'refused' ? 'red' : 'yellow'} title={t(`extension.waiting.${me.data.status}`)}>
        {me.data.status === 'refused' && me.data.reason ? me.data.reason : t('extension.waiting.lead')}
      </Alert>
    );
  }
  const monday = week.data?.week_start ?? null;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {week.data
          ? t('extension.week.title', { district: week.data.name, week: week.data.week })
          : t('extension.week.loading')}
      </Title>
      {districts.length > 1 && (
        <NativeSelect
          label={t('extension.week.district')}
          value={code ?? ''}
          onChange={(e) => setChosen(e.currentTarget.value)}
          data={districts.map((d) => ({ value: d.code, label: d.name }))}
          maw={320}
        />
      )}
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={!monday} onClick={() => monday && setDay(shift(monday, -1))}>
          {t('extension.week.previous')}
        </Button>
        <Button size="xs" variant="default" disabled={!monday || day === null} onClick={() => setDay(null)}>
          {t('extension.week.thisWeek')}
        </Button>
      </Group>
      {me.data?.national && (
        <Suspense fallback={null}>
          <BulletinDownloads />
        </Suspense>
      )}
      <ListState query={me.data ? week : me} errorTitle={t('extension.week.failed')} empty={false} emptyText="">
        {week.data && <WeekView week={week.data} several={districts.length > 1} />}
      </ListState>
    </Stack>
  );
}
