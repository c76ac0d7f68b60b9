import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { reviewVerdicts, type SeverityBandName, severityBands } from '@kutu/contract/enums';
import type { AnalysisResult, ReviewVerdict } from '@kutu/contract';
import { errorMessage } from '../../../lib/api.ts';
import { formatConfidence } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { AnalysisPhoto } from '../../../components/AnalysisPhoto.tsx';
import { FieldPhotos } from '../../../components/FieldPhotos.tsx';
import { resultLabelKey } from '../../../lib/diagnosis-labels.ts';
import { useClaim, useDecide, useReleaseClaim } from '../../../api/review.ts';
import { verdictKeyFor } from '../../../components/review/verdicts.ts';
import { OfficerNotes } from '../../../components/review/OfficerNotes.tsx';

export interface ReviewTarget {
  analysis: AnalysisResult;
  question: string | null;
  farmerName: string | null;
  /** The expert's earlier verdict, when revising it (no claim is needed then). */
  previous?: { verdict: ReviewVerdict | null; note: string | null; severity?: SeverityBandName | null };
}

/**
 * Reviewing one item: opening it claims it (so no other expert reviews it at the same time), closing
 * it without a decision gives the claim back. Revising one's own verdict needs no claim.
 */
export function ReviewDialog({ item, onClose }: { item: ReviewTarget; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 36em)');
  const claim = useClaim();
  const release = useReleaseClaim();
  const decide = useDecide();
  const revising = item.previous !== undefined;
  const [verdict, setVerdict] = useState<ReviewVerdict | null>(
    item.previous?.verdict ?? (item.analysis.outcome === 'not_leaf' ? 'not_leaf' : (item.analysis.rust_class ?? null)),
  );
  const [note, setNote] = useState(item.previous?.note ?? '');
  // The expert's own severity: optional, and only sent with a rust verdict (docs/decisions/0045).
  const [severity, setSeverity] = useState<SeverityBandName | null>(item.previous?.severity ?? null);
  const [error, setError] = useState<string | null>(null);
  const analysisId = item.analysis.id;
  const { mutate: claimItem } = claim;

  useEffect(() => {
    if (!revising) claimItem(analysisId);
  }, [claimItem, analysisId, revising]);

  const claimed = claim.isSuccess;
  function close() {
    if (claimed && !decide.isSuccess) release.mutate(analysisId);
    onClose();
  }

  function submit() {
    if (!verdict) {
      setError(t('review.dialog.chooseVerdict'));
      return;
    }
    setError(null);
    decide.mutate(
      {
        analysisId,
        body: {
          verdict,
          note: note.trim() || undefined,
          severity: verdict === 'common_rust' ? (severity ?? undefined) : undefined,
        },
      },
      {
        onSuccess: () => {
          notifySuccess(t('review.dialog.saved'));
          onClose();
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  }

  const a = item.analysis;
  return (
    <Modal opened onClose={close} title={t('review.dialog.title', { id: a.id })} size="lg" fullScreen={phone}>
      <Stack gap="sm">
        {claim.isError && (
          <Alert color="yellow" data-testid="claim-refused">
            {errorMessage(claim.error)}
          </Alert>
        )}
        <Group justify="center">
          <AnalysisPhoto
            id={a.id}
            imageUrl={a.image_url}
            heatmapUrl={a.heatmap_url}
            showToggle
            size={phone ? 300 : 360}
            alt={t('review.queue.photoAlt')}
          />
        </Group>
        {a.photos.length > 1 && <FieldPhotos result={a} size={phone ? 96 : 110} />}
        <OfficerNotes analysisId={a.id} />
        <Group gap="xs">
          <Text size="sm">{t('review.queue.modelSaid')}</Text>
          <Badge variant="light">{t(resultLabelKey(a))}</Badge>
          {a.outcome === 'diagnosis' && <Text size="sm">{formatConfidence(a.confidence)}</Text>}
          {a.unsure && <Badge color="yellow">{t('review.queue.unsure')}</Badge>}
          {a.crop && <Badge variant="outline">{t(`review.crop.${a.crop}`)}</Badge>}
        </Group>
        {item.question && (
          <Alert color="blue" title={t('review.queue.farmerAsks', { name: item.farmerName ?? '' })}>
            {item.question}
          </Alert>
        )}
        <Radio.Group
          label={t('review.dialog.verdict')}
          value={verdict}
          onChange={(v) => setVerdict(v as ReviewVerdict)}
          data-testid="verdict-choice"
        >
          <Stack gap={6} mt={4}>
            {reviewVerdicts.map((v) => (
              <Radio key={v} value={v} label={t(verdictKeyFor(v, a.crop))} />
            ))}
          </Stack>
        </Radio.Group>
        {verdict === 'common_rust' && (
          <Radio.Group
            label={t('review.severity.severity')}
            value={severity}
            onChange={(v) => setSeverity(v as SeverityBandName)}
            data-testid="severity-choice"
          >
            <Group gap="md" mt={4}>
              {severityBands.map((b) => (
                <Radio key={b} value={b} label={t(`analysis.result.severity.band.${b}`)} />
              ))}
            </Group>
          </Radio.Group>
        )}
        <Textarea
          label={t('review.dialog.note')}
          description={t('review.dialog.noteHint')}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
          data-testid="verdict-note"
        />
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="subtle" onClick={close}>
            {t('analysis.common.cancel')}
          </Button>
          <Button onClick={submit} loading={decide.isPending} disabled={claim.isPending || claim.isError}>
            {t('review.dialog.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
