import { type ComponentProps, useEffect } from 'react';
import { Button, Card, Group, List, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconPlus, IconPlayerSkipForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Field, GrowthStage, WalkStop } from '@kutu/contract';
import {
  growthStages,
  WALK_MAX_PLANTS_PER_STOP,
  WALK_MAX_STOPS,
  WALK_STOPS,
  walkTotals,
} from '@kutu/contract/field-rules';
import { Deferred } from '../../../components/OnDemand.tsx';
import { optionalLazy } from '../../../components/optional-lazy.ts';
import { StopCounter } from './StopCounter.tsx';
import type StopPhotoType from './StopPhoto.tsx';

/**
 * The leaf photo at a stop loads after the walk's screen (the how-to starts it), so the walk's first
 * download stays small; if it cannot load (no signal, never cached) the stop goes without it.
 */
const { Component: StopPhoto, preload: preloadStopPhoto } = optionalLazy<ComponentProps<typeof StopPhotoType>>(
  () => import('./StopPhoto.tsx'),
);

/**
 * How to walk a field (after FAO's FAMEWS: a W across it, 5 stops of about 10 plants, every leaf looked
 * at), and the growth stage to say when the field has no planting date.
 */
export function HowToWalk({
  field,
  stage,
  onStage,
  onStart,
}: {
  field: Field;
  stage: GrowthStage | '';
  onStage: (stage: GrowthStage | '') => void;
  onStart: () => void;
}) {
  const { t } = useTranslation();
  const askStage = field.planted_on === null && field.crop !== 'other';
  useEffect(preloadStopPhoto, []);
  return (
    <Card withBorder padding="md" radius="md" data-testid="walk-how">
      <Stack gap="sm">
        <Title order={2} size="h3">
          {t('fields.walk.howTitle')}
        </Title>
        <List type="ordered" spacing={6}>
          <List.Item>{t('fields.walk.how1')}</List.Item>
          <List.Item>{t('fields.walk.how2', { stops: WALK_STOPS })}</List.Item>
          <List.Item>{t('fields.walk.how3')}</List.Item>
          <List.Item>{t('fields.walk.how4')}</List.Item>
        </List>
        {askStage && (
          <NativeSelect
            label={t('fields.walk.stage')}
            description={t('fields.walk.stageHint')}
            value={stage}
            onChange={(e) => onStage(e.currentTarget.value as GrowthStage | '')}
            data={[
              { value: '', label: t('fields.walk.stageUnknown') },
              ...growthStages.map((s) => ({ value: s, label: t(`fields.stage.${s}`) })),
            ]}
          />
        )}
        <Button size="lg" onClick={onStart} data-testid="walk-start">
          {t('fields.walk.start')}
        </Button>
      </Stack>
    </Card>
  );
}

/**
 * One stop of the walk: plants looked at and plants with rust (never more than looked at), an optional
 * leaf photo, and the way on: back, next (or the answer at the last stop), add a stop, skip this one.
 */
export function StopScreen({
  field,
  stops,
  index,
  counted,
  onChange,
  onMove,
  onAdd,
  onSkip,
  onFinish,
  finishing,
  error,
}: {
  field: Field;
  stops: WalkStop[];
  index: number;
  /** Which stops the farmer has counted: the totals add up only those, not the planned ones ahead. */
  counted: readonly boolean[];
  onChange: (stop: WalkStop) => void;
  onMove: (index: number) => void;
  onAdd: () => void;
  onSkip: () => void;
  onFinish: () => void;
  finishing: boolean;
  error: string | null;
}) {
  const { t } = useTranslation();
  const stop = stops[index]!;
  const last = index === stops.length - 1;
  const totals = walkTotals(stops.filter((_, i) => counted[i]));
  const anyCounted = stops.some((_, i) => counted[i]);
  return (
    <Card withBorder padding="md" radius="md" data-testid="walk-stop">
      <Stack gap="md">
        <Title order={2} size="h3" ta="center" data-testid="walk-stop-title">
          {t('fields.walk.stop', { n: index + 1, total: stops.length })}
        </Title>
        <StopCounter
          label={t('fields.walk.looked')}
          value={stop.looked}
          max={WALK_MAX_PLANTS_PER_STOP}
          onChange={(looked) => onChange({ ...stop, looked, rust: Math.min(stop.rust, looked) })}
          testId="stop-looked"
        />
        <StopCounter
          label={t('fields.walk.rust')}
          value={stop.rust}
          max={stop.looked}
          onChange={(rust) => onChange({ ...stop, rust })}
          hint={stop.rust >= stop.looked && stop.looked > 0 ? t('fields.walk.rustMax') : null}
          testId="stop-rust"
        />
        <Deferred>
          <StopPhoto
            key={index}
            field={field}
            onAnalysed={(id) => onChange({ ...stop, ...(id === null ? {} : { analysis_id: id }) })}
          />
        </Deferred>
        {anyCounted && (
          <Text size="sm" c="dimmed" ta="center" data-testid="walk-totals">
            {t('fields.walk.totals', { rust: totals.rust, looked: totals.looked })}
          </Text>
        )}
        {error && (
          <Text size="sm" c="red" role="alert" ta="center">
            {error}
          </Text>
        )}
        <Group grow gap="sm">
          <Button
            size="lg"
            variant="default"
            leftSection={<IconArrowLeft size={20} />}
            onClick={() => onMove(index - 1)}
            disabled={index === 0}
          >
            {t('fields.walk.back')}
          </Button>
          {last ? (
            <Button size="lg" onClick={onFinish} loading={finishing} data-testid="walk-finish">
              {t('fields.walk.finish')}
            </Button>
          ) : (
            <Button
              size="lg"
              rightSection={<IconArrowRight size={20} />}
              onClick={() => onMove(index + 1)}
              data-testid="walk-next"
            >
              {t('fields.walk.next')}
            </Button>
          )}
        </Group>
        <Group justify="center" gap="sm">
          <Button
            variant="subtle"
            leftSection={<IconPlus size={16} />}
            onClick={onAdd}
            disabled={stops.length >= WALK_MAX_STOPS}
          >
            {t('fields.walk.addStop')}
          </Button>
          <Button
            variant="subtle"
            leftSection={<IconPlayerSkipForward size={16} />}
            onClick={onSkip}
            disabled={stops.length <= 1}
          >
            {t('fields.walk.skipStop')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
