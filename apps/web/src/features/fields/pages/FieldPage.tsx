import { lazy, Suspense, useEffect, useState } from 'react';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconPhotoScan, IconTrash, IconWalk } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Field } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { useField, walksQuery } from '../../../api/fields.ts';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { useWalkQueue } from '../../../lib/offline/walks.ts';
import { ListState } from '../../../components/ListState.tsx';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { OnDemand } from '../../../components/OnDemand.tsx';
import { fieldAge, plantedDate } from '../lib/words.ts';
import { WalkQueueNote } from '../components/WalkQueueNote.tsx';
import { WalkRow } from '../components/WalkRow.tsx';

export { screenStringsReady } from '../../../lib/fields-strings.ts';

const FieldForm = lazy(() => import('../components/FieldForm.tsx'));
const RetireDialog = lazy(() => import('../components/RetireDialog.tsx'));
// The week's rust weather shows once its forecast is in, so it loads beside that request, not in the screen's first bytes.
const RustWeather = lazy(() => import('../components/RustWeather.tsx').then((m) => ({ default: m.RustWeather })));

const WALKS_PAGE = 5;

/** The field's facts: crop, age and stage, size, district, planting date, and when Kutu asks again. */
function Facts({ field }: { field: Field }) {
  const { t } = useTranslation();
  const district = useDistrictName(field.district);
  const facts: { text: string | false | null | undefined; hidden?: boolean }[] = [
    { text: fieldAge(t, field) },
    { text: field.planted_on && t('fields.page.planted', { date: plantedDate(field.planted_on) }) },
    { text: field.size_acres !== null && t('fields.page.size', { acres: formatNumber(field.size_acres) }) },
    // Its line holds its place, hidden, until the district's name is in: the lines below do not move.
    { text: field.district && t('fields.page.district', { name: district ?? '' }), hidden: district === undefined },
    {
      text: field.remind_at
        ? t('fields.list.nextAsk', { date: formatDate(field.remind_at) })
        : field.last_walk && t('fields.page.noAsk'),
    },
  ];
  return (
    <Stack gap={4} data-testid="field-facts">
      {facts.map(
        ({ text, hidden }) =>
          text && (
            <Text key={text} size="sm" style={hidden ? { visibility: 'hidden' } : undefined}>
              {text}
            </Text>
          ),
      )}
    </Stack>
  );
}

/**
 * A district's name: the list of districts (2.8 KiB) loads just after the field's page, not with it
 * (decision 0121). Undefined until it is in.
 */
function useDistrictName(code: string | null): string | undefined {
  const [name, setName] = useState<string>();
  useEffect(() => {
    if (!code) return;
    let alive = true;
    void import('@kutu/contract/districts').then((m) => {
      if (alive) setName(m.districtByCode(code)?.name ?? code);
    });
    return () => {
      alive = false;
    };
  }, [code]);
  return name;
}

/** The field's walks, newest first: those still on this phone, then the server's, a page at a time. */
function Walks({ field }: { field: Field }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const walks = useQuery(walksQuery(field.id, page, WALKS_PAGE));
  const queued = useWalkQueue().filter((q) => q.fieldId === field.id);
  const waiting = queued.filter((q) => q.error === null).map((q) => q.answer);
  return (
    <Stack gap="sm" component="section" aria-labelledby="field-walks">
      <Title order={2} size="h3" id="field-walks">
        {t('fields.page.walks')}
      </Title>
      <WalkQueueNote queued={queued} />
      {[...waiting].reverse().map((walk) => (
        <WalkRow key={walk.walked_at} walk={walk} waiting />
      ))}
      <ListState
        query={walks}
        empty={walks.data?.count === 0 && waiting.length === 0}
        emptyText={t('fields.page.noWalks')}
      >
        {walks.data?.results.map((walk) => (
          <WalkRow key={walk.id} walk={walk} />
        ))}
        <ListPagination
          page={page}
          pageSize={WALKS_PAGE}
          count={walks.data?.count ?? 0}
          onChange={setPage}
          disabled={walks.isFetching}
        />
      </ListState>
    </Stack>
  );
}

function FieldDetail({ field }: { field: Field }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [retiring, setRetiring] = useState(false);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Title order={1} size="h2" style={{ wordBreak: 'break-word' }}>
          {field.name}
        </Title>
        <Badge size="lg" variant="light" color="green" tt="none" style={{ flexShrink: 0 }}>
          {t(`review.crop.${field.crop}`)}
        </Badge>
      </Group>
      <Facts field={field} />
      <Suspense fallback={null}>
        <RustWeather field={field} />
      </Suspense>
      <Button
        component={Link}
        to={routes.fieldWalk(field.id)}
        size="xl"
        fullWidth
        leftSection={<IconWalk size={28} />}
        data-testid="walk-this-field"
      >
        {t('fields.walkThis')}
      </Button>
      <Walks field={field} />
      <Card withBorder padding="sm" radius="md" component="section" aria-labelledby="field-photos">
        <Stack gap="xs">
          <Title order={2} size="h4" id="field-photos">
            {t('fields.page.photos')}
          </Title>
          <Text size="sm">{t('fields.page.photoCount', { count: field.analyses })}</Text>
          <Group gap="sm">
            <Button
              component={Link}
              to={`${routes.analysisHistory}?field=${field.id}`}
              variant="light"
              leftSection={<IconPhotoScan size={18} />}
              disabled={field.analyses === 0}
            >
              {t('fields.page.seePhotos')}
            </Button>
            <Button component={Link} to={`${routes.imageAnalysis}?field=${field.id}`} variant="subtle">
              {t('fields.page.addPhoto')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <Group gap="sm">
        <Button variant="default" leftSection={<IconPencil size={18} />} onClick={() => setEditing(true)}>
          {t('fields.page.edit')}
        </Button>
        <Button variant="subtle" color="red" leftSection={<IconTrash size={18} />} onClick={() => setRetiring(true)}>
          {t('fields.retire.button')}
        </Button>
      </Group>
      <OnDemand when={editing}>
        <FieldForm field={field} opened={editing} onClose={() => setEditing(false)} />
      </OnDemand>
      <OnDemand when={retiring}>
        <RetireDialog
          field={field}
          opened={retiring}
          onClose={() => setRetiring(false)}
          onRetired={() => void navigate(routes.fields, { replace: true })}
        />
      </OnDemand>
    </Stack>
  );
}

/** A field: its facts, its walks (with their comparisons), its photos, and a big "Walk this field". */
export default function FieldPage() {
  const { t } = useTranslation();
  const field = useField(Number(useParams().id));
  return (
    <Stack gap="md" maw={720}>
      <Button
        component={Link}
        to={routes.fields}
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('fields.title')}
      </Button>
      {field.isPending && field.fetchStatus === 'paused' ? (
        <Text data-testid="field-not-here">{t('fields.page.notOnPhone')}</Text>
      ) : (
        <ListState query={field} errorTitle={t('fields.page.notFound')}>
          {field.data && <FieldDetail field={field.data} />}
        </ListState>
      )}
    </Stack>
  );
}
