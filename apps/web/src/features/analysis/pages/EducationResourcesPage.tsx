import { lazy } from 'react';
import { Anchor, Badge, Breadcrumbs, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconBook } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { routes } from '../../../config/routes.ts';
import { useSession } from '../../../lib/use-session.ts';
import { formatDateTime, formatConfidence } from '../../../lib/format.ts';
import { useChosenOrLatestAnalysis } from '../../../api/analysis.ts';
import { verdictColor, verdictKeyFor } from '../../../components/review/verdicts.ts';
import { resultColor, resultLabelKey } from '../../../lib/diagnosis-labels.ts';
import { ResourcesAccordion } from '../components/ResourcesAccordion.tsx';
import { Deferred } from '../../../components/OnDemand.tsx';
import { ListState } from '../../../components/ListState.tsx';

// Experts only: farmers never download the editor and its schemas.
const ResourceManager = lazy(() =>
  import('../components/ResourceManager.tsx').then((m) => ({ default: m.ResourceManager })),
);

function parseId(raw: string | null): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}

/** The resources of one result: the one chosen (?analysis=ID) or the caller's newest. */
function ResultResources() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = parseId(params.get('analysis'));
  const analysis = useChosenOrLatestAnalysis(id);

  // A caller with no result yet has a disabled query: pending but not loading.
  const loading = analysis.isPending && analysis.fetchStatus !== 'idle';
  if (loading || analysis.isError) {
    return (
      <ListState
        query={{ isPending: loading, error: analysis.error, refetch: analysis.refetch }}
        errorTitle={t('analysis.resources.loadFailed')}
      />
    );
  }
  const result = analysis.data;
  if (!result) {
    return (
      <Card withBorder padding="xl" data-testid="resources-empty">
        <Stack align="center" gap="xs">
          <IconBook size={40} stroke={1.5} />
          <Text fw={500}>{t('analysis.resources.emptyTitle')}</Text>
          <Text size="sm" c="dimmed" ta="center">
            {t('analysis.resources.emptyText')}
          </Text>
          <Button component={Link} to={routes.imageAnalysis} variant="light">
            {t('menu.uploadImage')}
          </Button>
        </Stack>
      </Card>
    );
  }
  // The expert's answer leads where there is one (docs/decisions/0049): its resources, for the crop.
  const expert = result.expert_answer;
  const resources = expert?.educational_resources ?? result.educational_resources;
  return (
    <Stack gap="sm">
      <Group gap="xs" data-testid="resources-for">
        <Text size="sm" c="dimmed">
          {t(id ? 'analysis.resources.forChosen' : 'analysis.resources.forLatest')}
        </Text>
        {expert ? (
          <Badge color={verdictColor[expert.verdict]} variant="light" tt="none">
            {t('analysis.history.reviewed', { verdict: t(verdictKeyFor(expert.verdict, result.crop)) })}
          </Badge>
        ) : (
          <Badge color={resultColor(result)} variant="light">
            {t(resultLabelKey(result))}
          </Badge>
        )}
        {!expert && result.outcome === 'diagnosis' && <Text size="sm">{formatConfidence(result.confidence)}</Text>}
        <Text size="sm" c="dimmed">
          {formatDateTime(result.created_at)}
        </Text>
        <Anchor component={Link} to={routes.analysisHistory} size="sm">
          {t('analysis.resources.chooseAnother')}
        </Anchor>
      </Group>
      {resources.length === 0 ? (
        <Text c="dimmed">{t('analysis.resources.noneForResult')}</Text>
      ) : (
        <ResourcesAccordion resources={resources} />
      )}
    </Stack>
  );
}

export default function EducationResourcesPage() {
  const { t } = useTranslation();
  const { role } = useSession();
  return (
    <Stack gap="md" maw={960}>
      <Breadcrumbs>
        <Anchor component={Link} to={routes.dashboard}>
          {t('menu.dashboard')}
        </Anchor>
        <Anchor component={Link} to={routes.educationResources}>
          {t('menu.educationResources')}
        </Anchor>
      </Breadcrumbs>
      <Title order={1} size="h2">
        {t('menu.educationResources')}
      </Title>
      {role === 'expert' ? (
        <Deferred>
          <ResourceManager />
        </Deferred>
      ) : (
        <ResultResources />
      )}
    </Stack>
  );
}
