import { useState } from 'react';
import {
  Badge,
  Button,
  Card,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { analysisCrops, modelAnswers } from '@kutu/contract/enums';
import type { AnalysisCrop, ModelAnswer, ReviewQueueItem, ReviewQueueQuery } from '@kutu/contract';
import { districtGroups } from '../../../lib/district-options.ts';
import { formatDateTime, formatConfidence, formatPercent } from '../../../lib/format.ts';
import { AnalysisPhoto } from '../../../components/AnalysisPhoto.tsx';
import { resultColor, resultLabelKey } from '../../../lib/diagnosis-labels.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { useReviewQueue } from '../../../api/review.ts';
import { MyVerdicts } from '../components/MyVerdicts.tsx';
import { ReviewDialogOnDemand } from '../components/ReviewDialogOnDemand.tsx';

const PAGE_SIZE = 10;

function QueueCard({ item, onReview }: { item: ReviewQueueItem; onReview: () => void }) {
  const { t } = useTranslation();
  const a = item.analysis;
  return (
    <Card withBorder padding="sm" data-testid="queue-item">
      <Stack gap="xs">
        <Group align="flex-start" wrap="nowrap">
          <AnalysisPhoto id={a.id} imageUrl={a.image_url} size={96} alt={t('review.queue.photoAlt')} />
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Group gap={6}>
              {item.question && <Badge color="blue">{t('review.queue.asked')}</Badge>}
              {item.reason && <Badge color="red">{t('review.queue.followUpWorse')}</Badge>}
              <Badge color={resultColor(a)} variant="light">
                {t(resultLabelKey(a))}
              </Badge>
              {a.outcome === 'diagnosis' && <Text size="sm">{formatConfidence(a.confidence)}</Text>}
              {a.unsure && <Badge color="yellow">{t('review.queue.unsure')}</Badge>}
            </Group>
            <Text size="xs" c="dimmed">
              {a.crop ? t(`review.crop.${a.crop}`) : t('review.crop.unknown')}
              {item.margin !== null && ` · ${t('review.queue.margin', { margin: formatPercent(item.margin) })}`}
            </Text>
            <Text size="xs" c="dimmed">
              {item.farmer.username} · {formatDateTime(a.created_at)} · {a.model_version}
            </Text>
            {item.claimed_by && (
              <Badge color="gray" variant="outline">
                {t('review.queue.claimedBy', { name: item.claimed_by.username })}
              </Badge>
            )}
          </Stack>
        </Group>
        {item.reason && (
          <Text size="sm" c="red.8" data-testid="queue-reason">
            {item.reason}
          </Text>
        )}
        {item.question && (
          <Text size="sm" data-testid="queue-question">
            “{item.question}”
          </Text>
        )}
        <Button onClick={onReview} fullWidth variant="light">
          {t('review.queue.review')}
        </Button>
      </Stack>
    </Card>
  );
}

/**
 * The queue's filters; `district` (from the outbreak table's links) narrows it to the farmers of one
 * district or county.
 */
type QueueFilters = Omit<ReviewQueueQuery, 'page' | 'page_size'>;

/** The waiting items, most useful first, with filters. */
function WaitingList() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<QueueFilters>(() => ({ district: params.get('district') || undefined }));
  const [open, setOpen] = useState<ReviewQueueItem | null>(null);
  const queue = useReviewQueue({ ...filters, page, page_size: PAGE_SIZE });
  const setFilter = (patch: Partial<typeof filters>) => {
    setPage(1);
    setFilters((f) => ({ ...f, ...patch }));
    if ('district' in patch) {
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          if (patch.district) next.set('district', patch.district);
          else next.delete('district');
          return next;
        },
        { replace: true },
      );
    }
  };

  return (
    <Stack gap="md">
      <Text c="dimmed">{t('review.queue.intro')}</Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs">
        <NativeSelect
          label={t('review.filters.district')}
          data={[
            { value: '', label: t('review.filters.anyDistrict') },
            ...districtGroups((c) => t(`outbreak.countries.${c}`)),
          ]}
          value={filters.district ?? ''}
          onChange={(e) => setFilter({ district: e.currentTarget.value || undefined })}
          data-testid="filter-district"
        />
        <NativeSelect
          label={t('review.filters.crop')}
          data={[
            { value: '', label: t('review.filters.anyCrop') },
            ...analysisCrops.map((c) => ({ value: c, label: t(`review.crop.${c}`) })),
          ]}
          value={filters.crop ?? ''}
          onChange={(e) => setFilter({ crop: (e.currentTarget.value as AnalysisCrop) || undefined })}
        />
        <NativeSelect
          label={t('review.filters.outcome')}
          data={[
            { value: '', label: t('review.filters.anyOutcome') },
            ...modelAnswers.map((o) => ({ value: o, label: t(`review.answer.${o}`) })),
          ]}
          value={filters.outcome ?? ''}
          onChange={(e) => setFilter({ outcome: (e.currentTarget.value as ModelAnswer) || undefined })}
          data-testid="filter-outcome"
        />
        <TextInput
          label={t('review.filters.modelVersion')}
          value={filters.model_version ?? ''}
          onChange={(e) => setFilter({ model_version: e.currentTarget.value.trim() || undefined })}
        />
        <TextInput
          type="date"
          label={t('review.filters.from')}
          value={filters.from ?? ''}
          onChange={(e) => setFilter({ from: e.currentTarget.value || undefined })}
        />
        <TextInput
          type="date"
          label={t('review.filters.to')}
          value={filters.to ?? ''}
          onChange={(e) => setFilter({ to: e.currentTarget.value || undefined })}
        />
      </SimpleGrid>
      <ListState
        query={queue}
        empty={queue.data?.count === 0}
        emptyText={
          <Card withBorder padding="lg">
            <Text>{t('review.queue.empty')}</Text>
          </Card>
        }
      >
        <Text size="sm" c="dimmed" data-testid="queue-count">
          {t('review.queue.count', { count: queue.data?.count ?? 0 })}
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          {queue.data?.results.map((item) => (
            <QueueCard key={item.analysis.id} item={item} onReview={() => setOpen(item)} />
          ))}
        </SimpleGrid>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={queue.data?.count ?? 0} onChange={setPage} />
      </ListState>
      {open && (
        <ReviewDialogOnDemand
          key={open.analysis.id}
          item={{ analysis: open.analysis, question: open.question, farmerName: open.farmer.username }}
          onClose={() => setOpen(null)}
        />
      )}
    </Stack>
  );
}

/** The expert review queue (farmers' analyses no expert has decided) and the expert's own verdicts. */
export default function ReviewQueuePage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" maw={1000}>
      <Title order={1} size="h2">
        {t('review.queue.title')}
      </Title>
      <Tabs defaultValue="waiting" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="waiting">{t('review.tabs.waiting')}</Tabs.Tab>
          <Tabs.Tab value="mine">{t('review.tabs.mine')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="waiting" pt="md">
          <WaitingList />
        </Tabs.Panel>
        <Tabs.Panel value="mine" pt="md">
          <MyVerdicts />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/outbreak-strings.ts';
