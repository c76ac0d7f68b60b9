import { useState } from 'react';
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { downloadClinicCsv, useClinicRecords } from '../../../api/clinic.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDate } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';

const PAGE_SIZE = 10;

/**
 * The expert's own clinic records as cards (a 390 px phone), paged, and the CSV download. A visit not
 * answered yet (left after "Diagnose", a reload) opens with `onOpen`, to be confirmed and its SMS sent.
 */
export function ClinicRecords({ onOpen }: { onOpen: (visitId: number) => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useClinicRecords(page, PAGE_SIZE);
  const [downloading, setDownloading] = useState(false);
  const download = () => {
    setDownloading(true);
    downloadClinicCsv()
      .catch((err) => notifyError(errorMessage(err, t('clinic.records.csvError')), t('clinic.records.csvError')))
      .finally(() => setDownloading(false));
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fw={700}>{t('clinic.records.title')}</Text>
        <Button leftSection={<IconDownload size={16} />} variant="light" onClick={download} loading={downloading}>
          {t('clinic.records.csv')}
        </Button>
      </Group>
      <ListState query={query} empty={query.data?.count === 0} emptyText={t('clinic.records.empty')}>
        {query.data?.results.map((r) => (
          <Card key={r.id} withBorder padding="sm">
            <Text size="sm" fw={600}>
              {formatDate(r.created_at)} · {r.farmer_name} · {r.farmer_phone}
            </Text>
            <Text size="sm">
              {t(`review.crop.${r.crop}`)}
              {r.variety && ` (${r.variety})`} · {t(`clinic.stages.${r.growth_stage}`)}
              {r.plants_looked !== null &&
                ` · ${t('clinic.records.counts', { rust: r.plants_rust, looked: r.plants_looked })}`}
              {r.share_affected !== null && ` · ${r.share_affected} %`}
            </Text>
            <Text size="sm">
              {t('clinic.records.verdict')}: {r.verdict ? t(`review.verdict.${r.verdict}`) : t('clinic.records.open')}
            </Text>
            {r.recommendation && <Text size="sm">{r.recommendation}</Text>}
            {!r.verdict && (
              <Button mt="xs" size="compact-sm" style={{ alignSelf: 'start' }} onClick={() => onOpen(r.id)}>
                {t('clinic.records.finish')}
              </Button>
            )}
          </Card>
        ))}
        <ListPagination page={page} pageSize={PAGE_SIZE} count={query.data?.count ?? 0} onChange={setPage} />
      </ListState>
    </Stack>
  );
}
