import type { ReactNode } from 'react';
import { Card, Center, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DashboardMonth, DashboardOutcomes } from '@kutu/contract';
import { formatMonth, formatNumber } from '../../../lib/format.ts';
import { LoadingSkeleton } from '../../../components/LoadingSkeleton.tsx';

/** Both charts have this height, so the two cards line up. */
export const CHART_HEIGHT = 300;
/** Spec point 9: Common Rust red, Healthy green, Other Diseases blue. */
export const classColors = {
  common_rust: 'red.6',
  healthy: 'green.6',
  other_disease: 'blue.6',
  unclear: 'gray.5',
} as const;
type ClassKey = keyof typeof classColors;
const colorVar = (k: ClassKey) => `var(--mantine-color-${classColors[k].replace('.', '-')})`;

/*
 * Two small SVG charts instead of @mantine/charts: recharts was about 100 KiB (brotli) of the dashboard's
 * 358 and a phone on 2G pays for every one (decision 0016). Each mark carries a <title> (the hover text) and
 * the legend prints the numbers, so nothing depends on hovering.
 */
function Legend({ items }: { items: { key: ClassKey; label: string }[] }) {
  return (
    <Group gap="md" mb="xs" justify="center" data-testid="chart-legend">
      {items.map((i) => (
        <Group key={i.key} gap={6} wrap="nowrap">
          <span aria-hidden style={{ width: 10, height: 10, borderRadius: 5, background: colorVar(i.key) }} />
          <Text size="xs">{i.label}</Text>
        </Group>
      ))}
    </Group>
  );
}

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md" h="100%">
      <Text fw={600} mb="sm">
        {title}
      </Text>
      {children}
    </Card>
  );
}

/**
 * A chart with nothing to draw: a skeleton of its height while the figures load, then the empty words.
 * A failed load shows no chart: the page says it once, with its retry (ListState), above the charts.
 */
function Placeholder({ isPending, empty }: { isPending: boolean; empty: string }) {
  if (isPending) return <LoadingSkeleton h={CHART_HEIGHT} />;
  return (
    <Center h={CHART_HEIGHT}>
      <Text c="dimmed">{empty}</Text>
    </Center>
  );
}

export function OutcomesChart({
  outcomes,
  isPending,
}: {
  outcomes: DashboardOutcomes | undefined;
  isPending: boolean;
}) {
  const { t } = useTranslation();
  const title = t('dashboard.charts.outcomes');
  const keys: ClassKey[] = ['common_rust', 'healthy', 'other_disease', 'unclear'];
  const data = outcomes
    ? keys
        // The fourth slice only appears when there is something in it.
        .filter((k) => k !== 'unclear' || outcomes.unclear > 0)
        .map((k) => ({
          key: k,
          label: `${t(`dashboard.classes.${k}`)}: ${formatNumber(outcomes[k])}`,
          value: outcomes[k],
        }))
    : [];
  const total = data.reduce((sum, d) => sum + d.value, 0);
  return (
    <ChartCard title={title}>
      {outcomes && total > 0 ? (
        <>
          <Legend items={data} />
          <svg viewBox="-100 -100 200 200" height={CHART_HEIGHT - 40} width="100%" role="img" aria-label={title}>
            {donut(data, total)}
          </svg>
        </>
      ) : (
        <Placeholder isPending={isPending} empty={t('dashboard.charts.noAnalyses')} />
      )}
    </ChartCard>
  );
}

/** Slices of a ring, clockwise from the top; one class alone is a full ring. */
function donut(data: { key: ClassKey; label: string; value: number }[], total: number) {
  const [outer, inner] = [95, 55];
  const point = (r: number, turn: number) =>
    `${(r * Math.sin(turn * 2 * Math.PI)).toFixed(2)} ${(-r * Math.cos(turn * 2 * Math.PI)).toFixed(2)}`;
  let from = 0;
  return data
    .filter((d) => d.value > 0)
    .map((d) => {
      const share = d.value / total;
      const to = from + Math.min(share, 0.9999);
      const large = to - from > 0.5 ? 1 : 0;
      const path = `M ${point(outer, from)} A ${outer} ${outer} 0 ${large} 1 ${point(outer, to)} L ${point(inner, to)} A ${inner} ${inner} 0 ${large} 0 ${point(inner, from)} Z`;
      from += share;
      return (
        <path key={d.key} d={path} fill={colorVar(d.key)} data-testid={`slice-${d.key}`}>
          <title>{`${d.label} (${formatNumber(Math.round(share * 100))} %)`}</title>
        </path>
      );
    });
}

export function MonthlyChart({ monthly, isPending }: { monthly: DashboardMonth[] | undefined; isPending: boolean }) {
  const { t } = useTranslation();
  const title = t('dashboard.charts.monthly');
  const series: ClassKey[] = ['common_rust', 'healthy', 'other_disease'];
  const any = monthly?.some((m) => m.common_rust + m.healthy + m.other_disease > 0);
  return (
    <ChartCard title={title}>
      {monthly && any ? (
        <>
          <Legend items={series.map((k) => ({ key: k, label: t(`dashboard.classes.${k}`) }))} />
          <Bars
            monthly={monthly}
            series={series}
            label={(k) => t(`dashboard.classes.${k}`)}
            title={title}
            height={CHART_HEIGHT - 40}
          />
        </>
      ) : (
        <Placeholder isPending={isPending} empty={t('dashboard.charts.noRecent')} />
      )}
    </ChartCard>
  );
}

/** Grouped bars per month on a whole-number scale. */
function Bars(props: {
  monthly: DashboardMonth[];
  series: ClassKey[];
  label: (k: ClassKey) => string;
  title: string;
  height: number;
}) {
  const { monthly, series, height } = props;
  const [width, left, bottom, top] = [360, 28, 22, 8];
  const max = Math.max(1, ...monthly.flatMap((m) => series.map((k) => m[k as Exclude<ClassKey, 'unclear'>])));
  const step = Math.max(1, Math.ceil(max / 4));
  const ticks = Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => i * step);
  const scaleMax = Math.max(max, ticks.at(-1)!);
  const plotH = height - bottom - top;
  const y = (v: number) => top + plotH - (v / scaleMax) * plotH;
  const groupW = (width - left) / monthly.length;
  const barW = Math.min(14, (groupW - 8) / series.length);
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" height={height} role="img" aria-label={props.title}>
      {ticks.map((v) => (
        <g key={v}>
          <line x1={left} x2={width} y1={y(v)} y2={y(v)} stroke="var(--mantine-color-gray-3)" strokeWidth={1} />
          <text x={left - 6} y={y(v) + 4} textAnchor="end" fontSize={11} fill="var(--mantine-color-gray-7)">
            {formatNumber(v)}
          </text>
        </g>
      ))}
      {monthly.map((m, i) => {
        const x0 = left + i * groupW + (groupW - barW * series.length) / 2;
        return (
          <g key={m.month}>
            {series.map((k, j) => {
              const v = m[k as Exclude<ClassKey, 'unclear'>];
              return (
                <rect
                  key={k}
                  x={x0 + j * barW}
                  y={y(v)}
                  width={barW - 1}
                  height={y(0) - y(v)}
                  fill={colorVar(k)}
                  data-testid={`bar-${m.month}-${k}`}
                >
                  <title>{`${formatMonth(m.month)}, ${props.label(k)}: ${formatNumber(v)}`}</title>
                </rect>
              );
            })}
            <text
              x={left + (i + 0.5) * groupW}
              y={height - 6}
              textAnchor="middle"
              fontSize={11}
              fill="var(--mantine-color-gray-7)"
            >
              {formatMonth(m.month, false)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
