import '@mantine/charts/styles.css';
import type { ReactNode } from 'react';
import { Alert, Button, Card, Center, Skeleton, Text } from '@mantine/core';
import { BarChart, PieChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';
import type { DashboardMonth, DashboardOutcomes } from '@kutu/contract';

/** Both charts have this height, so the two cards line up. */
export const CHART_HEIGHT = 300;
/** Spec point 9: Common Rust red, Healthy green, Other Diseases blue. */
export const classColors = {
  common_rust: 'red.6',
  healthy: 'green.6',
  other_disease: 'blue.6',
  unclear: 'gray.5',
} as const;
const legendProps = { verticalAlign: 'top' as const, height: 36 };
const legendStyles = { legendItemName: { fontSize: 12 } };

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

interface ChartState {
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
}

function Placeholder({ isPending, error, onRetry, empty }: ChartState & { empty: string }) {
  const { t } = useTranslation();
  if (isPending) return <Skeleton h={CHART_HEIGHT} aria-label={t('dashboard.loading')} />;
  return (
    <Center h={CHART_HEIGHT}>
      {error ? (
        <Alert color="red" title={t('dashboard.charts.failed')}>
          <Button size="xs" variant="light" onClick={onRetry}>
            {t('dashboard.retry')}
          </Button>
        </Alert>
      ) : (
        <Text c="dimmed">{empty}</Text>
      )}
    </Center>
  );
}

export function OutcomesChart({ outcomes, ...state }: ChartState & { outcomes: DashboardOutcomes | undefined }) {
  const { t } = useTranslation();
  const title = t('dashboard.charts.outcomes');
  const keys = ['common_rust', 'healthy', 'other_disease', 'unclear'] as const;
  const data = outcomes
    ? keys
        // The fourth slice only appears when there is something in it.
        .filter((k) => k !== 'unclear' || outcomes.unclear > 0)
        .map((k) => ({ name: t(`dashboard.classes.${k}`), value: outcomes[k], color: classColors[k] }))
    : [];
  const total = data.reduce((sum, d) => sum + d.value, 0);
  return (
    <ChartCard title={title}>
      {outcomes && total > 0 ? (
        <PieChart
          data={data}
          h={CHART_HEIGHT}
          w="100%"
          size={200}
          withTooltip
          tooltipDataSource="segment"
          withLegend
          legendProps={legendProps}
          styles={legendStyles}
          aria-label={title}
        />
      ) : (
        <Placeholder {...state} isPending={state.isPending} empty={t('dashboard.charts.noAnalyses')} />
      )}
    </ChartCard>
  );
}

export function MonthlyChart({ monthly, ...state }: ChartState & { monthly: DashboardMonth[] | undefined }) {
  const { t } = useTranslation();
  const title = t('dashboard.charts.monthly');
  const any = monthly?.some((m) => m.common_rust + m.healthy + m.other_disease > 0);
  return (
    <ChartCard title={title}>
      {monthly && any ? (
        <BarChart
          h={CHART_HEIGHT}
          data={monthly}
          dataKey="label"
          series={(['common_rust', 'healthy', 'other_disease'] as const).map((k) => ({
            name: k,
            label: t(`dashboard.classes.${k}`),
            color: classColors[k],
          }))}
          withLegend
          legendProps={legendProps}
          styles={legendStyles}
          withTooltip
          yAxisProps={{ allowDecimals: false }}
          aria-label={title}
        />
      ) : (
        <Placeholder {...state} empty={t('dashboard.charts.noRecent')} />
      )}
    </ChartCard>
  );
}
