import { lazy, Suspense, useState } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ForecastCrop, PendingAdvisory } from '@kutu/contract';
import { useForecastWeek } from '../../../api/forecast.ts';
import {
  useForecastScore,
  useLiftHold,
  usePendingAdvisories,
  useRunForecast,
  useSendNow,
} from '../../../api/forecast-desk.ts';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/use-session.ts';
import { reasonsOf } from '../../../lib/forecast-reasons.ts';
import { screenStringsReady as staffStrings } from '../../../lib/staff-strings.ts';
import { screenStringsReady as outbreakStrings } from '../../../lib/outbreak-strings.ts';

// The form opens on a tap: its form library loads then, not with the screen.
const HoldForm = lazy(() => import('../components/HoldForm.tsx').then((m) => ({ default: m.HoldForm })));

/** The staff strings and the outbreak map's (the levels and their reasons). */
export const screenStringsReady = Promise.all([staffStrings, outbreakStrings]).then(() => {});

const stateColour = { held: 'orange', due: 'blue', sent: 'gray' } as const;

/** Next week's risk: the districts whose week is high or moderate, worst first. */
function WeekRisk() {
  const { t } = useTranslation();
  const [crop, setCrop] = useState<ForecastCrop>('maize');
  const q = useForecastWeek(crop);
  const shown = (q.data?.districts ?? []).filter((d) => d.worst === 'high' || d.worst === 'moderate');
  shown.sort((a, b) => (a.worst === b.worst ? a.name.localeCompare(b.name) : a.worst === 'high' ? -1 : 1));
  return (
    <Card withBorder radius="md" data-testid="desk-week">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            {t('forecastDesk.week')}
          </Title>
          <SegmentedControl
            size="xs"
            value={crop}
            onChange={(v) => setCrop(v as ForecastCrop)}
            data={[
              { value: 'maize', label: t('forecastDesk.crops.maize') },
              { value: 'beans', label: t('forecastDesk.crops.beans') },
            ]}
          />
        </Group>
        {q.isPending ? <Loader size="sm" /> : null}
        {q.data?.weather.state === 'unknown' ? <Alert color="yellow">{t('forecastDesk.noWeather')}</Alert> : null}
        {q.data ? (
          <Text size="sm" c="dimmed">
            {q.data.run_at ? t('forecastDesk.runAt', { when: formatDateTime(q.data.run_at) }) : t('forecastDesk.noRun')}
          </Text>
        ) : null}
        {q.data && shown.length === 0 ? <Text size="sm">{t('forecastDesk.allLow')}</Text> : null}
        <Group gap={6} wrap="wrap">
          {shown.map((d) => (
            <Badge
              key={d.code}
              color={d.worst === 'high' ? 'red' : 'yellow'}
              variant="light"
              data-testid="desk-district"
            >
              {`${d.name}: ${t(`outbreak.forecast.levels.${d.worst}`)}`}
            </Badge>
          ))}
        </Group>
      </Stack>
    </Card>
  );
}

function AdvisoryCard({ a, holdId }: { a: PendingAdvisory; holdId?: number }) {
  const { t } = useTranslation();
  const [holding, setHolding] = useState(false);
  const lift = useLiftHold();
  const onLift = (id: number) =>
    lift.mutate(id, {
      onSuccess: (r) => notifySuccess(t('forecastDesk.lifted', { name: a.name, when: formatDateTime(r.next_send_at) })),
      onError: (err) => notifyError(errorMessage(err)),
    });
  return (
    <Card withBorder radius="md" data-testid="desk-advisory">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>{`${a.name} · ${t(`forecastDesk.crops.${a.crop}`)}`}</Text>
          <Badge color={stateColour[a.state]}>{t(`forecastDesk.states.${a.state}`)}</Badge>
        </Group>
        <Text size="sm">
          {t('forecastDesk.highFrom', { day: formatDate(`${a.high_day}T12:00:00Z`, 'UTC') })}
          {a.due_at ? ` ${t('forecastDesk.dueAt', { when: formatDateTime(a.due_at) })}` : ''}
          {a.told_at ? ` ${t('forecastDesk.toldAt', { when: formatDateTime(a.told_at) })}` : ''}
        </Text>
        <Text size="sm" c="dimmed">
          {reasonsOf(a.basis, 'high', t).join('; ')}
        </Text>
        {a.state === 'due' && !holding ? (
          <Button
            size="xs"
            variant="light"
            color="orange"
            onClick={() => setHolding(true)}
            style={{ alignSelf: 'start' }}
          >
            {t('forecastDesk.holdOpen')}
          </Button>
        ) : null}
        {holding ? (
          <Suspense fallback={<Loader size="sm" />}>
            <HoldForm district={a.district} name={a.name} onDone={() => setHolding(false)} />
          </Suspense>
        ) : null}
        {a.state === 'held' && holdId !== undefined ? (
          <Button
            size="xs"
            variant="light"
            loading={lift.isPending}
            onClick={() => onLift(holdId)}
            style={{ alignSelf: 'start' }}
          >
            {t('forecastDesk.lift')}
          </Button>
        ) : null}
      </Stack>
    </Card>
  );
}

/** The week's advisories by district before they go out, with their holds (decision 0128). */
function Pending() {
  const { t } = useTranslation();
  const q = usePendingAdvisories();
  const send = useSendNow();
  const onSend = () =>
    send.mutate(undefined, {
      onSuccess: (r) => notifySuccess(t('forecastDesk.sent', { count: r.told })),
      onError: (err) => notifyError(errorMessage(err)),
    });
  if (q.isPending) return <Loader size="sm" />;
  if (q.error) {
    return (
      <Alert color={q.error instanceof ApiError && q.error.status === 403 ? 'gray' : 'red'} data-testid="desk-refused">
        {q.error instanceof ApiError && q.error.status === 403 ? t('forecastDesk.nationalOnly') : errorMessage(q.error)}
      </Alert>
    );
  }
  const p = q.data;
  const openHold = new Map(p.holds.filter((h) => !h.lifted).map((h) => [h.district, h.id]));
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('forecastDesk.pending')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('forecastDesk.sendRule', { hour: p.send_hour_eat, when: formatDateTime(p.next_send_at) })}
      </Text>
      {p.advisories.length === 0 ? (
        <Text size="sm">{t('forecastDesk.none')}</Text>
      ) : (
        <Group>
          <Button variant="light" onClick={onSend} loading={send.isPending} data-testid="desk-send">
            {t('forecastDesk.sendNow')}
          </Button>
        </Group>
      )}
      {p.advisories.map((a) => (
        <AdvisoryCard key={`${a.district}-${a.crop}`} a={a} holdId={openHold.get(a.district)} />
      ))}
      {p.holds.length ? (
        <>
          <Title order={3} size="h5">
            {t('forecastDesk.log')}
          </Title>
          {p.holds.map((h) => (
            <Text key={h.id} size="sm" data-testid="desk-hold">
              {t('forecastDesk.logLine', {
                name: h.name,
                by: h.held.by ?? '—',
                when: formatDateTime(h.held.at),
                reason: h.reason,
              })}
              {h.lifted
                ? ` ${t('forecastDesk.logLifted', { by: h.lifted.by ?? '—', when: formatDateTime(h.lifted.at) })}`
                : ''}
            </Text>
          ))}
        </>
      ) : null}
    </Stack>
  );
}

const two = (x: number | null) => (x === null ? '–' : x.toFixed(2));

/**
 * How good the forecast has been, with the weeks behind it (decision 0129), as the weekly sweep stored it and
 * when (decision 0137); nothing for a reader refused.
 */
function Score() {
  const { t } = useTranslation();
  const q = useForecastScore();
  if (!q.data) return null;
  const s = q.data.score;
  return (
    <Card withBorder radius="md" data-testid="desk-score">
      <Stack gap={6}>
        <Title order={2} size="h4">
          {t('forecastDesk.score.title')}
        </Title>
        {s === null ? (
          <Text size="sm">{t('forecastDesk.score.notYet')}</Text>
        ) : s.cases === 0 ? (
          <Text size="sm">{t('forecastDesk.score.none')}</Text>
        ) : (
          <>
            <Text size="sm">{t('forecastDesk.score.behind', { weeks: s.weeks, cases: s.cases })}</Text>
            <Text size="sm">
              {t('forecastDesk.score.figures', {
                hit: two(s.hit_rate),
                far: two(s.false_alarm_ratio),
                peirce: two(s.peirce),
                skill: two(s.brier_skill),
              })}
            </Text>
            {s.reliability.map((r) => (
              <Text key={r.level} size="sm" c="dimmed">
                {t('forecastDesk.score.level', {
                  level: t(`outbreak.forecast.levels.${r.level}`),
                  cases: r.cases,
                  share: r.rate === null ? '–' : `${Math.round(r.rate * 100)} %`,
                })}
              </Text>
            ))}
          </>
        )}
        {s && (
          <Text size="xs" c="dimmed">
            {t('forecastDesk.score.scored', { week: s.week_start })}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** The forecast desk for administrators and national officers: next week's risk, the advisories to hold, a run now. */
export default function ForecastDeskPage() {
  const { t } = useTranslation();
  const { role } = useSession();
  const run = useRunForecast();
  const onRun = () =>
    run.mutate(undefined, {
      onSuccess: (r) => notifySuccess(r.weather === 'known' ? t('forecastDesk.ran') : t('forecastDesk.ranNoWeather')),
      onError: (err) => notifyError(errorMessage(err)),
    });
  return (
    <Stack gap="md" maw={760}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={1} size="h3">
          {t('forecastDesk.title')}
        </Title>
        {role === 'admin' ? (
          <Button onClick={onRun} loading={run.isPending} data-testid="desk-run">
            {t('forecastDesk.runNow')}
          </Button>
        ) : null}
      </Group>
      <WeekRisk />
      <Pending />
      <Score />
    </Stack>
  );
}
