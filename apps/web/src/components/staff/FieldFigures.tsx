import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { FieldCropCheck, FieldFiguresRow, FieldSetReply, ShareInterval } from '@kutu/contract';
import { useFieldFigures } from '../../api/review.ts';
import { fieldSetQuery } from '../../api/training.ts';
import { formatDateTime, formatPercent } from '../../lib/format.ts';
import { ListState } from '../ListState.tsx';
import { ConfirmActivation } from './ConfirmActivation.tsx';

/** A share with its 95 % interval: "62% (55–69%)". */
function shareLine(s: ShareInterval | null) {
  if (!s) return '–';
  return `${formatPercent(s.share, 0)} (${formatPercent(s.low, 0)}–${formatPercent(s.high, 0)})`;
}

/** One crop's verified photos month by month, then over all time. */
function CropTable({ crop, rows }: { crop: string; rows: FieldFiguresRow[] }) {
  const { t } = useTranslation();
  const name = t(`review.crop.${crop}`, { defaultValue: crop });
  return (
    <Stack gap={4} data-testid={`field-figures-${crop}`}>
      <Text fw={600}>{name}</Text>
      <Table.ScrollContainer minWidth={480}>
        <Table striped withTableBorder fz="sm" aria-label={t('training.fieldGate.tableOf', { crop: name })}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('training.fieldGate.month')}</Table.Th>
              <Table.Th>{t('training.fieldGate.checked')}</Table.Th>
              <Table.Th>{t('training.fieldGate.right')}</Table.Th>
              <Table.Th>{t('training.fieldGate.confidentWrong')}</Table.Th>
              <Table.Th>{t('training.fieldGate.unsure')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.month ?? 'all'} fw={r.month ? undefined : 600}>
                <Table.Td>{r.month ?? t('training.fieldGate.allTime')}</Table.Td>
                <Table.Td>{r.checked}</Table.Td>
                <Table.Td>{shareLine(r.right)}</Table.Td>
                <Table.Td>{shareLine(r.confident_wrong)}</Table.Td>
                <Table.Td>{shareLine(r.unsure)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** A crop's result in the last field check, in words. */
function checkLine(t: TFunction, c: FieldCropCheck, min: number) {
  const crop = t(`review.crop.${c.crop}`, { defaultValue: c.crop });
  if (c.outcome === 'too_few') return t('training.fieldGate.checkTooFew', { crop, photos: c.photos, min });
  return t(`training.fieldGate.check.${c.outcome}`, {
    crop,
    photos: c.photos,
    candidateRight: c.right.candidate,
    activeRight: c.right.active,
    candidateWrong: c.confident_wrong.candidate,
    activeWrong: c.confident_wrong.active,
    points: c.detectable_points ?? '–',
  });
}

/**
 * Each crop's unsure cut learnt from the verified held-back photos, its bound and its photos, and since when it
 * answers (only where stricter than the card's; 0119).
 */
function LearntCuts({ cut }: { cut: NonNullable<FieldSetReply['cut']> }) {
  const { t } = useTranslation();
  const pct = (v: number | null) => (v === null ? '–' : formatPercent(v, 1));
  return (
    <Stack gap={2} data-testid="field-cuts">
      <Text size="sm" fw={600}>
        {t('training.fieldGate.cut.title', { max: formatPercent(cut.max_wrong, 0) })}
      </Text>
      {cut.crops.map((c) => {
        const args = {
          crop: t(`review.crop.${c.crop}`, { defaultValue: c.crop }),
          photos: c.photos,
          card: pct(c.card_cut),
          cut: pct(c.cut),
          bound: pct(c.bound),
        };
        const applied =
          c.applied === 'field'
            ? t('training.fieldGate.cut.appliedSince', { since: formatDateTime(c.applied_since) })
            : t('training.fieldGate.cut.cardApplies');
        return (
          <Text key={c.crop} size="sm">
            {c.cut === null
              ? t('training.fieldGate.cut.tooFew', args)
              : `${t('training.fieldGate.cut.learnt', args)}; ${applied}`}
          </Text>
        );
      })}
    </Stack>
  );
}

/** The photos the retraining gate holds back, by crop, and how the last candidate fared on them. */
function HeldBack({ set }: { set: FieldSetReply }) {
  const { t } = useTranslation();
  const last = set.last_check;
  const lines = last ? last.field_check.crops.map((c) => checkLine(t, c, last.field_check.min_photos)) : [];
  return (
    <Stack gap="xs" data-testid="field-set">
      <Text fw={600}>{t('training.fieldGate.heldBackTitle')}</Text>
      <Text size="sm" c="dimmed">
        {t('training.fieldGate.heldBackIntro', { every: set.hold_out_every, min: set.min_photos })}
      </Text>
      {set.crops.length === 0 && <Text size="sm">{t('training.fieldGate.noneHeldBack')}</Text>}
      {set.crops.map((c) => (
        <Group key={c.crop} gap="xs">
          <Text size="sm">
            {t('training.fieldGate.heldBackLine', {
              crop: t(`review.crop.${c.crop}`, { defaultValue: c.crop }),
              photos: c.photos,
            })}
          </Text>
          <Badge color={c.enough ? 'green' : 'gray'} variant="light">
            {c.enough ? t('training.fieldGate.judged') : t('training.fieldGate.tooFew', { min: set.min_photos })}
          </Badge>
        </Group>
      ))}
      {set.cut && set.cut.crops.length > 0 && <LearntCuts cut={set.cut} />}
      {last && (
        <Stack gap={2} data-testid="field-last-check">
          <Text size="sm" fw={600}>
            {t(last.accepted ? 'training.fieldGate.lastAccepted' : 'training.fieldGate.lastRefused', {
              version: last.version,
            })}
          </Text>
          {lines.map((line) => (
            <Text key={line} size="sm">
              {line}
            </Text>
          ))}
          {!last.accepted && !last.is_active && <ConfirmActivation id={last.id} version={last.version} lines={lines} />}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * The field gate for experts and administrators (docs/decisions/0086): how often Kutu was right,
 * confidently wrong and unsure on the photos experts verified, by crop and month with 95 % intervals, and
 * the held-back photos a retrained model must not do worse on.
 */
export function FieldFigures() {
  const { t } = useTranslation();
  const figures = useFieldFigures();
  const set = useQuery(fieldSetQuery());
  const rows = figures.data?.rows ?? [];
  const crops = [...new Set(rows.map((r) => r.crop))];
  return (
    <Paper withBorder p="md" radius="md" data-testid="field-figures">
      <Stack>
        <div>
          <Title order={3}>{t('training.fieldGate.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('training.fieldGate.intro', { months: figures.data?.months ?? 12 })}
          </Text>
        </div>
        <ListState query={figures} empty={crops.length === 0} emptyText={t('training.fieldGate.noneChecked')}>
          {crops.map((crop) => (
            <CropTable key={crop} crop={crop} rows={rows.filter((r) => r.crop === crop)} />
          ))}
        </ListState>
        <ListState query={set}>{set.data && <HeldBack set={set.data} />}</ListState>
      </Stack>
    </Paper>
  );
}
