import { SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';
import { useState } from 'react';
import { Anchor, Badge, Button, Card, Group, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { OutbreakCrop, OutbreakTableRow } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';
import { PHONE_QUERY } from '../../../config/theme.ts';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError } from '../../../lib/notify.ts';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ListState } from '../../../components/ListState.tsx';
import { downloadOutbreakCsv, useOutbreakTable } from '../../../api/outbreak.ts';
import type { Country } from '../../../lib/geo/geo.ts';
import { BELOW_MIN_VALUE, type Count, countLabel, LEVEL_FILLS } from '../lib/shading.ts';

const PAGE_SIZE = 20;

/** Twelve weeks of confirmed cases as a 60 × 16 sparkline ("below the minimum" drawn as BELOW_MIN_VALUE). */
function Sparkline({ weeks }: { weeks: Count[] }) {
  const values = weeks.map((c) => (c.below_min ? BELOW_MIN_VALUE : (c.count ?? 0)));
  const max = Math.max(3, ...values);
  return (
    <svg width={60} height={16} aria-hidden="true">
      {values.map((v, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the weeks are fixed positions, oldest first
        <rect key={i} x={i * 5} y={16 - (v / max) * 16} width={4} height={(v / max) * 16} fill={LEVEL_FILLS[3]} />
      ))}
    </svg>
  );
}

/** The review queue, filtered to one district. */
export const reviewQueueFor = (code: string) => `${routes.reviewQueue}?district=${encodeURIComponent(code)}`;

/**
 * For experts and extension officers: districts with cases in the last 12 weeks, those with reported
 * cases no expert has reviewed first (the server's order), each linking to the review queue for that
 * district, and the CSV of weekly counts (same privacy rule: `<3` for 1 or 2).
 */
export function DistrictTable({ crop, country }: { crop: OutbreakCrop; country: Country }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [downloading, setDownloading] = useState(false);
  const table = useOutbreakTable({ crop, country, page, page_size: PAGE_SIZE });
  const fewer = t('outbreak.fewerThanMin', SMALL_COUNT_WORDS);
  const phone = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  const download = () => {
    setDownloading(true);
    downloadOutbreakCsv(crop)
      .catch((err) =>
        notifyError(errorMessage(err, t('outbreak.table.downloadError')), t('outbreak.table.downloadError')),
      )
      .finally(() => setDownloading(false));
  };
  const name = (r: OutbreakTableRow) => (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {r.name}
      </Text>
      <Group gap={4}>
        {r.alert && (
          <Badge size="xs" color="red">
            {t('outbreak.district.alert')}
          </Badge>
        )}
        {r.demo && (
          <Badge size="xs" color="yellow">
            {t('outbreak.demoBadge')}
          </Badge>
        )}
      </Group>
    </Stack>
  );
  const trend = (r: OutbreakTableRow) => (
    <Group gap={6} wrap="nowrap">
      <Sparkline weeks={r.trend} />
      <Text size="xs">{t(`outbreak.table.direction.${r.direction}`)}</Text>
    </Group>
  );
  const review = (r: OutbreakTableRow) => (
    <Anchor component={Link} to={reviewQueueFor(r.code)} aria-label={t('outbreak.table.reviewLabel', { name: r.name })}>
      {t('outbreak.table.review')}
    </Anchor>
  );
  const row = (r: OutbreakTableRow) => (
    <Table.Tr key={r.code} data-testid="outbreak-row">
      <Table.Td>{name(r)}</Table.Td>
      <Table.Td ta="right">{countLabel(r.unreviewed, fewer)}</Table.Td>
      <Table.Td ta="right">{countLabel(r.confirmed, fewer)}</Table.Td>
      <Table.Td ta="right">{countLabel(r.reported, fewer)}</Table.Td>
      <Table.Td>{trend(r)}</Table.Td>
      <Table.Td>{review(r)}</Table.Td>
    </Table.Tr>
  );
  // On a phone each district is a card: the table's six columns ran past the screen, Review last.
  const card = (r: OutbreakTableRow) => (
    <Card key={r.code} withBorder padding="sm" data-testid="outbreak-row">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          {name(r)}
          {review(r)}
        </Group>
        <SimpleGrid cols={3} spacing="xs">
          {(['unreviewed', 'confirmed', 'reported'] as const).map((key) => (
            <Stack key={key} gap={0}>
              <Text size="xs" c="dimmed">
                {t(`outbreak.table.${key}`)}
              </Text>
              <Text size="sm">{countLabel(r[key], fewer)}</Text>
            </Stack>
          ))}
        </SimpleGrid>
        <Stack gap={2}>
          <Text size="xs" c="dimmed">
            {t('outbreak.table.trend')}
          </Text>
          {trend(r)}
        </Stack>
      </Stack>
    </Card>
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start">
        <Text size="sm" c="dimmed" maw={640}>
          {t('outbreak.table.intro')}
        </Text>
        <Button
          leftSection={<IconDownload size={16} />}
          variant="light"
          onClick={download}
          loading={downloading}
          data-testid="outbreak-csv"
        >
          {t('outbreak.table.download')}
        </Button>
      </Group>
      <ListState
        query={table}
        keepOnError
        empty={table.data?.count === 0}
        emptyText={
          <Card withBorder padding="lg">
            <Text>{t('outbreak.table.empty')}</Text>
          </Card>
        }
      >
        {phone ? (
          <Stack gap="sm" data-testid="outbreak-cards">
            {table.data?.results.map(card)}
          </Stack>
        ) : (
          <ScrollArea type="auto">
            <Table miw={620} striped data-testid="outbreak-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('outbreak.table.district')}</Table.Th>
                  <Table.Th ta="right">{t('outbreak.table.unreviewed')}</Table.Th>
                  <Table.Th ta="right">{t('outbreak.table.confirmed')}</Table.Th>
                  <Table.Th ta="right">{t('outbreak.table.reported')}</Table.Th>
                  <Table.Th>{t('outbreak.table.trend')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>{table.data?.results.map(row)}</Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </ListState>
      <ListPagination page={page} pageSize={PAGE_SIZE} count={table.data?.count ?? 0} onChange={setPage} />
    </Stack>
  );
}
