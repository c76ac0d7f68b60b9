import { SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';
import { Alert, Badge, CloseButton, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OutbreakCrop, OutbreakWeek } from '@kutu/contract';
import { formatDate } from '../../../lib/format.ts';
import { useOutbreakTrend } from '../../../api/outbreak.ts';
import { BELOW_MIN_VALUE, type Count, countLabel, LEVEL_FILLS } from '../lib/shading.ts';
import type { DistrictCounts } from './DistrictMap.tsx';

/** The height a count's bar stands for: "below the minimum" is drawn as BELOW_MIN_VALUE, never as its real number. */
const barValue = (c: Count) => (c.below_min ? BELOW_MIN_VALUE : (c.count ?? 0));

/** Twelve weeks as bars: confirmed filled, reported as a thin bar beside it. The table below is the text. */
function TrendChart({ weeks, label }: { weeks: OutbreakWeek[]; label: string }) {
  const max = Math.max(3, ...weeks.flatMap((w) => [barValue(w.confirmed), barValue(w.reported)]));
  const W = 24;
  const H = 80;
  return (
    <svg viewBox={`0 0 ${weeks.length * W} ${H + 2}`} role="img" aria-label={label} style={{ width: '100%' }}>
      {weeks.map((w, i) => {
        const confirmed = (barValue(w.confirmed) / max) * H;
        const reported = (barValue(w.reported) / max) * H;
        return (
          <g key={w.week}>
            <rect x={i * W + 3} y={H - confirmed} width={12} height={confirmed} fill={LEVEL_FILLS[3]} />
            <rect x={i * W + 16} y={H - reported} width={4} height={reported} fill="#5f3dc4" />
          </g>
        );
      })}
      <line x1={0} x2={weeks.length * W} y1={H + 1} y2={H + 1} stroke="#868e96" />
    </svg>
  );
}

interface DistrictDetailProps {
  code: string;
  name: string;
  crop: OutbreakCrop;
  days: number;
  counts: DistrictCounts;
  alert: boolean;
  onClose: () => void;
}

/** A tapped district: its counts in the window and its weekly trend over 12 weeks. */
export function DistrictDetail({ code, name, crop, days, counts, alert, onClose }: DistrictDetailProps) {
  const { t } = useTranslation();
  const trend = useOutbreakTrend(code, crop);
  const fewer = t('outbreak.fewerThanMin', SMALL_COUNT_WORDS);
  return (
    <Paper withBorder p="sm" data-testid="district-detail">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            {name}
          </Title>
          <CloseButton onClick={onClose} aria-label={t('outbreak.district.close')} size="lg" />
        </Group>
        {alert && <Badge color="red">{t('outbreak.district.alert')}</Badge>}
        <Group gap="lg">
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('outbreak.district.confirmed', { days })}
            </Text>
            <Text fw={700} data-testid="detail-confirmed">
              {countLabel(counts.confirmed, fewer)}
            </Text>
          </Stack>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('outbreak.district.reported')}
            </Text>
            <Text fw={700} data-testid="detail-reported">
              {countLabel(counts.reported, fewer)}
            </Text>
          </Stack>
        </Group>
        <Text size="sm" fw={500}>
          {t('outbreak.district.trendTitle')}
        </Text>
        {trend.isPending && <Loader size="sm" />}
        {trend.isError && !trend.data && <Alert color="gray">{t('outbreak.district.trendError')}</Alert>}
        {trend.data && (
          <>
            <TrendChart weeks={trend.data.weeks} label={t('outbreak.district.trendTitle')} />
            <Table fz="xs" verticalSpacing={2} data-testid="trend-table">
              <Table.Tbody>
                {trend.data.weeks.map((w) => (
                  <Table.Tr key={w.week}>
                    <Table.Td>{t('outbreak.district.trendWeek', { date: formatDate(w.week_start, 'UTC') })}</Table.Td>
                    <Table.Td ta="right">
                      {t('outbreak.district.trendRow', {
                        confirmed: countLabel(w.confirmed, fewer),
                        reported: countLabel(w.reported, fewer),
                      })}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
      </Stack>
    </Paper>
  );
}
