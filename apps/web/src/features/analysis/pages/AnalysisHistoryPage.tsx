import { lazy, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { IconUserCheck } from '@tabler/icons-react';
import { Badge, Button, Card, Group, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPhotoScan } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { formatDateTime, formatConfidence } from '../../../lib/format.ts';
import { analysisQuery, useAnalyses } from '../../../api/analysis.ts';
import { fieldQuery } from '../../../api/fields.ts';
import { verdictKeyFor } from '../../../components/review/verdicts.ts';
import { AnalysisPhoto } from '../../../components/AnalysisPhoto.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { resultColor, resultLabelKey } from '../../../lib/diagnosis-labels.ts';
import { OnDemand } from '../../../components/OnDemand.tsx';

const ResultDialog = lazy(() => import('../components/ResultDialog.tsx'));

// With the page's chunk: the fields' strings (each photo's field, a field's photos; the router waits for them).
export { screenStringsReady } from '../../../lib/fields-strings.ts';

const PAGE_SIZE = 10;

function HistoryRow({ item, onOpen }: { item: AnalysisResult; onOpen: () => void }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="sm" data-testid="history-item">
      <Group wrap="nowrap" align="center">
        <UnstyledButton onClick={onOpen} aria-label={t('analysis.history.open')}>
          <AnalysisPhoto id={item.id} imageUrl={item.image_url} size={72} alt={t('analysis.history.photoAlt')} />
        </UnstyledButton>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs">
            {item.expert_verdict && (
              <Badge
                color="green"
                variant="filled"
                leftSection={<IconUserCheck size={12} />}
                style={{ textTransform: 'none', maxWidth: '100%' }}
                data-testid="reviewed-badge"
              >
                {t('analysis.history.reviewed', { verdict: t(verdictKeyFor(item.expert_verdict, item.crop)) })}
              </Badge>
            )}
            {item.expert_answer?.severity && (
              <Badge color="orange" variant="light" tt="none" data-testid="reviewed-severity">
                {t('analysis.expert.severity', {
                  band: t(`analysis.result.severity.band.${item.expert_answer.severity}`),
                })}
              </Badge>
            )}
            {/* The model's answer follows the expert's, as what the model said (docs/decisions/0049). */}
            <Badge
              color={resultColor(item)}
              variant={item.expert_verdict ? 'outline' : 'light'}
              tt={item.expert_verdict ? 'none' : undefined}
            >
              {item.expert_verdict
                ? t('analysis.history.modelSaid', { label: t(resultLabelKey(item)) })
                : t(resultLabelKey(item))}
            </Badge>
            {item.outcome === 'diagnosis' && <Text fw={500}>{formatConfidence(item.confidence)}</Text>}
            {item.unsure && (
              <Badge color="yellow" variant="outline">
                {t('analysis.history.unsure')}
              </Badge>
            )}
            {item.photos.length > 1 && (
              <Badge color="gray" variant="outline" data-testid="photo-count">
                {t('analysis.more.photoCount', { count: item.photos.length })}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {formatDateTime(item.created_at)} · {t('analysis.history.model', { version: item.model_version })}
          </Text>
          {item.field && (
            <Text size="sm" c="dimmed" data-testid="history-field">
              {t('fields.result.name', { name: item.field.name })}
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" onClick={onOpen}>
            {t('analysis.history.open')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            component={Link}
            to={`${routes.educationResources}?analysis=${item.id}`}
            visibleFrom="sm"
          >
            {t('menu.educationResources')}
          </Button>
        </Group>
      </Group>
    </Card>
  );
}

/** The farmer's past analyses, newest first, to reopen a result; `?field=ID`: one field's only. */
export default function AnalysisHistoryPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<AnalysisResult | null>(null);
  // `?analysis=ID` (a verdict's notification, SMS or email) opens that result with the expert's answer.
  const [params, setParams] = useSearchParams();
  const fieldId = Number(params.get('field')) || null;
  const field = useQuery({ ...fieldQuery(fieldId ?? 0), enabled: fieldId !== null });
  const list = useAnalyses(page, PAGE_SIZE, fieldId);
  const linked = Number(params.get('analysis')) || null;
  const linkedResult = useQuery({ ...analysisQuery(linked ?? 0), enabled: linked !== null });
  const shown = open ?? (linked !== null ? (linkedResult.data ?? null) : null);
  const close = () => {
    setOpen(null);
    if (linked !== null) setParams({}, { replace: true });
  };

  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('analysis.history.title')}
        </Title>
        <Button component={Link} to={routes.imageAnalysis}>
          {t('menu.uploadImage')}
        </Button>
      </Group>
      {fieldId !== null && (
        <Group gap="xs" data-testid="history-of-field">
          {field.data && <Text fw={600}>{t('fields.result.name', { name: field.data.name })}</Text>}
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => {
              setPage(1);
              setParams({}, { replace: true });
            }}
          >
            {t('fields.result.allPhotos')}
          </Button>
        </Group>
      )}
      <ListState
        query={list}
        errorTitle={t('analysis.history.loadFailed')}
        empty={list.data?.count === 0}
        emptyText={
          <Card withBorder padding="xl" data-testid="history-empty">
            <Stack align="center" gap="xs">
              <IconPhotoScan size={40} stroke={1.5} />
              <Text fw={500}>{t('analysis.history.emptyTitle')}</Text>
              <Button component={Link} to={routes.imageAnalysis} variant="light">
                {t('menu.uploadImage')}
              </Button>
            </Stack>
          </Card>
        }
      >
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('analysis.history.count', { count: list.data?.count ?? 0 })}
          </Text>
          {list.data?.results.map((item) => (
            <HistoryRow key={item.id} item={item} onOpen={() => setOpen(item)} />
          ))}
          <ListPagination
            page={page}
            pageSize={PAGE_SIZE}
            count={list.data?.count ?? 0}
            onChange={setPage}
            disabled={list.isFetching}
          />
        </Stack>
      </ListState>
      <OnDemand when={shown !== null}>
        <ResultDialog result={shown} onClose={close} />
      </OnDemand>
    </Stack>
  );
}
