import { useState } from 'react';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MyReviewPage } from '@kutu/contract';
import { formatDateTime } from '../../../lib/format.ts';
import { AnalysisPhoto } from '../../../components/AnalysisPhoto.tsx';
import { resultLabelKey } from '../../../lib/diagnosis-labels.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { useMyVerdicts } from '../../../api/review.ts';
import type { ReviewTarget } from './ReviewDialog.tsx';
import { ReviewDialogOnDemand } from './ReviewDialogOnDemand.tsx';
import { verdictColor, verdictKeyFor } from '../../../components/review/verdicts.ts';

const PAGE_SIZE = 10;

/** The expert's own verdicts, latest first, each open to revision. */
export function MyVerdicts() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<ReviewTarget | null>(null);
  const list = useMyVerdicts(page, PAGE_SIZE);
  const items: MyReviewPage['results'] = list.data?.results ?? [];
  return (
    <Stack gap="sm">
      <ListState
        query={list}
        empty={list.data?.count === 0}
        emptyText={
          <Card withBorder padding="lg">
            <Text>{t('review.mine.empty')}</Text>
          </Card>
        }
      >
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          {items.map(({ analysis: a, review: r }) => (
            <Card key={a.id} withBorder padding="sm" data-testid="my-verdict">
              <Stack gap="xs">
                <Group align="flex-start" wrap="nowrap">
                  <AnalysisPhoto id={a.id} imageUrl={a.image_url} size={80} alt={t('review.queue.photoAlt')} />
                  <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="xs" c="dimmed">
                      {t('review.queue.modelSaid')} {t(resultLabelKey(a))}
                    </Text>
                    {r.verdict && (
                      <Badge color={verdictColor[r.verdict]} data-testid="my-verdict-class">
                        {t(verdictKeyFor(r.verdict, a.crop))}
                      </Badge>
                    )}
                    {r.note && <Text size="sm">“{r.note}”</Text>}
                    <Text size="xs" c="dimmed">
                      {formatDateTime(r.revised_at ?? r.reviewed_at)}
                    </Text>
                  </Stack>
                </Group>
                <Button
                  variant="light"
                  fullWidth
                  onClick={() =>
                    setOpen({
                      analysis: a,
                      question: r.question,
                      farmerName: null,
                      previous: { verdict: r.verdict, note: r.note, severity: r.severity },
                    })
                  }
                >
                  {t('review.mine.change')}
                </Button>
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
        <ListPagination page={page} pageSize={PAGE_SIZE} count={list.data?.count ?? 0} onChange={setPage} />
      </ListState>
      {open && <ReviewDialogOnDemand key={open.analysis.id} item={open} onClose={() => setOpen(null)} />}
    </Stack>
  );
}
