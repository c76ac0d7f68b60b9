import { type ComponentProps, Suspense, useEffect, useRef, useState } from 'react';
import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisCrop, AnalysisResult, Field } from '@kutu/contract';
import { profileCrop } from '@kutu/contract/enums';
import { MAX_FIELD_PHOTOS } from '@kutu/contract/field-photos';
import { routes } from '../../../config/routes.ts';
import { ApiError } from '../../../lib/api.ts';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify.ts';
import { useOfflineDiagnosis } from '../../../lib/offline/use-offline-diagnosis.ts';
import {
  addFieldPhoto,
  analysisKeys,
  analysisQuery,
  uploadForAnalysis,
  type UploadStage,
} from '../../../api/analysis.ts';
import { useMe } from '../../../api/profile.ts';
import { useResultView } from '../lib/use-result-view.ts';
import { preloadResultField } from '../components/result-field-lazy.ts';
import { PhotoPicker, type PhotoRejection } from '../../../components/PhotoPicker/PhotoPicker.tsx';
import { ProgressLater } from '../../../components/ProgressLater.tsx';
import { enqueue } from '../../../lib/offline/queue.ts';
import { offlineSupported } from '../../../lib/offline/store.ts';
import type { Leaf } from '../components/FieldLeaves.tsx';
import { FieldLeavesLater } from '../components/FieldLeavesLater.tsx';
import { FollowUpChoice } from '../components/FollowUpChoice.tsx';
import { CropChoice } from '../components/CropChoice.tsx';
import { Deferred } from '../../../components/OnDemand.tsx';
import { optionalLazy } from '../../../components/optional-lazy.ts';
import type { FieldChoice as FieldChoiceType } from '../components/FieldChoice.tsx';
import { OfflineResultLater, preloadOfflineResult } from '../components/OfflineResultLater.tsx';
import { rememberField } from '../lib/last-field.ts';

// The offline card, below the form: loaded after the screen, started now (decision 0121).
const offlineCard = optionalLazy<Record<string, never>>(() =>
  import('../../../components/offline/OfflineCard.tsx').then((m) => ({ default: m.OfflineCard })),
);
offlineCard.preload();

type Stage = 'idle' | 'preparing' | UploadStage;

// Which field (decision 0078): its code and the fields' strings come just after the screen.
const fieldChoice = optionalLazy<ComponentProps<typeof FieldChoiceType>>(() =>
  import('../components/FieldChoice.tsx').then(async (m) => {
    await m.screenStringsReady;
    return { default: m.FieldChoice };
  }),
);
const FieldChoice = fieldChoice.Component;

let leafIds = 0;
/** Loaded on the first pick, not with the screen: the shrinking (lib/shrink.ts) and the leaf's print. */
const shrink = () => import('../../../lib/shrink.ts');
const leafPrint = () => import('../../../lib/leaf-print.ts');

/** The crop a farmer most likely photographs: the first of maize or beans among their profile's crops. */
export const defaultCrop = (cropTypes: string[] | undefined): AnalysisCrop => profileCrop(cropTypes) ?? 'maize';

/** `?follow_up=<id>` (the reminder's link), `?field=<id>` (a field's page): an id in the address, if any. */
function idParam(params: URLSearchParams, name: 'follow_up' | 'field'): number | null {
  const id = Number(params.get(name));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export default function UploadImagePage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const followUpOf = idParam(params, 'follow_up');
  // The first diagnosis: its date for the banner and its crop (the same field) for the upload.
  const first = useQuery({ ...analysisQuery(followUpOf ?? 0), enabled: followUpOf !== null });
  // The leaves of one field (decision 0048): the first one is enough, up to MAX_FIELD_PHOTOS.
  const [leaves, setLeaves] = useState<Leaf[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>('idle');
  const [sent, setSent] = useState(0);
  // Which leaf is being sent (1-based), while more than one is.
  const [sending, setSending] = useState(0);
  const [result, setResult] = useState<AnalysisResult | null>(null);
  const [offlineResult, setOfflineResult] = useState<AnalysisResult | null>(null);
  const offline = useOfflineDiagnosis();
  const busy = stage !== 'idle';
  const me = useMe();
  const [chosenCrop, setCrop] = useState<AnalysisCrop | null>(null);
  // The field the photo is of (docs/decisions/0078): its crop is the photo's.
  const [farmField, setFarmField] = useState<Field | null>(null);
  // A follow-up photo is of the first diagnosis's crop (the server refuses another).
  const followedCrop = followUpOf !== null ? first.data?.crop : undefined;
  // A chosen field shows its crop; a crop tapped that is not the field's drops the field (FieldChoice takes
  // the farmer's field of that crop, or none): a bean leaf is never read by a maize field's rules.
  const crop = followedCrop ?? farmField?.crop ?? chosenCrop ?? defaultCrop(me.data?.farmer?.crop_types);
  const chooseCrop = (chosen: AnalysisCrop) => {
    setCrop(chosen);
    if (farmField && farmField.crop !== chosen) setFarmField(null);
  };
  const fieldSent = farmField ? { id: farmField.id, name: farmField.name } : undefined;
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const answer = result ?? offlineResult;

  // A result's field (and its ask for a walk) is in memory before an answer made with no signal needs it.
  useEffect(() => {
    preloadResultField();
    preloadOfflineResult();
  }, []);
  const ResultWithReview = useResultView(result !== null);

  // A new answer: bring the farmer to it and tell screen readers, once the progress bar above it is gone
  // (or it would slide under the top bar) and the server's answer has its view.
  useEffect(() => {
    if (!answer || busy || (result && !ResultWithReview)) return;
    const heading = resultHeading.current;
    if (!heading) return;
    heading.focus({ preventScroll: true });
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    heading.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  }, [answer, busy, result, ResultWithReview]);

  // Each leaf's preview URL lives until the leaf is removed or sent; what is left goes with the page.
  const shown = useRef<Leaf[]>([]);
  shown.current = leaves;
  useEffect(
    () => () => {
      for (const l of shown.current) URL.revokeObjectURL(l.preview);
    },
    [],
  );

  function showError(message: string) {
    setError(message);
    notifyError(message);
  }
  function clearLeaves() {
    for (const l of leaves) URL.revokeObjectURL(l.preview);
    setLeaves([]);
  }
  function clear() {
    clearLeaves();
    setError(null);
  }
  function remove(leaf: Leaf) {
    URL.revokeObjectURL(leaf.preview);
    setLeaves((all) => all.filter((l) => l !== leaf));
  }

  /** Every drop or pick adds one leaf: any refused file (a second one included) refuses the drop, with the reason. */
  function onDropAny(files: File[], rejections: PhotoRejection[]) {
    if (rejections.length > 0) {
      void shrink().then((m) => showError(t(m.rejectionKey(rejections))));
      return;
    }
    const chosen = files[0];
    if (!chosen) return;
    setError(null);
    // A leaf picked under an answer starts a new field.
    const start = answer !== null;
    if (start) {
      setResult(null);
      setOfflineResult(null);
    }
    const print = leafPrint().then((m) => m.printOfPhoto(chosen));
    const leaf: Leaf = { id: ++leafIds, file: chosen, preview: URL.createObjectURL(chosen), prepared: null, print };
    const before = start ? [] : leaves;
    setLeaves((all) => [...(start ? [] : all), leaf].slice(0, MAX_FIELD_PHOTOS));
    setStage('preparing');
    // Size and format are checked on what will be sent, after shrinking (decision 0018).
    shrink()
      .then((m) => m.preparePhoto(chosen))
      .then(async ({ photo, refusal }) => {
        // One leaf counts once, online or not (the server checks it again): a leaf already chosen is refused.
        const others = await Promise.all(before.map((l) => l.print));
        const repeat = refusal ? -1 : (await leafPrint()).repeatedLeaf(await print, others);
        if (refusal || repeat >= 0) {
          remove(leaf);
          showError(refusal ? t(refusal) : t('analysis.upload.sameLeaf', { n: before.length + 1, m: repeat + 1 }));
        } else setLeaves((all) => all.map((l) => (l === leaf ? { ...leaf, prepared: photo } : l)));
      })
      .finally(() => setStage('idle'));
  }

  async function process() {
    if (leaves.length === 0) {
      showError(t('analysis.upload.missing'));
      return;
    }
    const photos = leaves.map((l) => l.prepared ?? { blob: l.file, filename: l.file.name, resized: false });
    if (!navigator.onLine) {
      await processOffline(photos);
      return;
    }
    const [photo, ...others] = photos;
    const form = new FormData();
    form.append('crop', crop);
    if (followUpOf !== null) form.append('follow_up_of', String(followUpOf));
    if (farmField) form.append('field_id', String(farmField.id));
    form.append('image', photo.blob, photo.filename);
    setError(null);
    setSent(0);
    setSending(others.length > 0 ? 1 : 0);
    setStage('uploading');
    let analysed: AnalysisResult;
    try {
      analysed = await uploadForAnalysis(form, (s, fraction) => {
        setStage(s);
        setSent(fraction);
      });
    } catch (err) {
      setStage('idle');
      // The signal dropped during the upload: diagnose on the phone instead, when it can.
      if (err instanceof ApiError && err.status === 0 && offline.available) await processOffline(photos);
      else showError((err as Error).message || t('analysis.upload.failed'));
      return;
    }
    if (farmField) rememberField(farmField.id);
    try {
      analysed = await sendOtherLeaves(analysed, others);
    } finally {
      setResult(analysed);
      // What went wrong with another leaf stays said.
      clearLeaves();
      setSending(0);
      setStage('idle');
      // Answered: a next photo is not this follow-up again.
      if (followUpOf !== null) setParams({}, { replace: true });
    }
    // An unsure answer or no leaf is no success: said plainly, with no "Success" over it.
    if (analysed.unsure || analysed.outcome === 'not_leaf') notifyInfo(t('analysis.upload.checked'));
    else notifySuccess(t('analysis.upload.done'));
    await client.invalidateQueries({ queryKey: analysisKeys.all });
  }

  /**
   * The field's other leaves join the answer one by one; one the server refuses (no leaf in it) is
   * said and skipped, and with the signal gone the rest wait in the phone's queue for this analysis.
   */
  async function sendOtherLeaves(first: AnalysisResult, others: { blob: Blob; filename: string }[]) {
    let field = first;
    if (others.length > 0 && field.outcome === 'not_leaf') showError(t('analysis.upload.othersNotSent'));
    for (const [i, leaf] of others.entries()) {
      if (field.second_photo.photos_left === 0) break;
      setSending(i + 2);
      setStage('analysing');
      try {
        field = await addFieldPhoto(field.id, leaf);
      } catch (err) {
        if (err instanceof ApiError && err.status === 0 && offlineSupported()) {
          for (const rest of others.slice(i)) await enqueue({ ...rest, crop, analysisId: field.id });
          notifyError(t('analysis.upload.leavesQueued'));
          break;
        }
        showError(t('analysis.upload.leafRefused', { n: i + 2, reason: (err as Error).message }));
      }
    }
    return field;
  }

  /** No network: the phone diagnoses the leaves and queues them for the server (features/offline). */
  async function processOffline(photos: { blob: Blob; filename: string }[]) {
    if (!offline.available) {
      showError(t('offline.noModel'));
      return;
    }
    setError(null);
    setStage('analysing');
    try {
      const { diagnoseOffline } = await import('../../../lib/offline/diagnose.ts');
      setOfflineResult(
        await diagnoseOffline({ leaves: photos, crop, followUpOf: followUpOf ?? undefined, farmField: fieldSent }),
      );
      if (farmField) rememberField(farmField.id);
      // Queued with the follow-up: a next photo is not this follow-up again.
      if (followUpOf !== null) setParams({}, { replace: true });
      setResult(null);
      clear();
    } catch (err) {
      showError(t('offline.failed', { message: (err as Error).message }));
    } finally {
      setStage('idle');
    }
  }

  return (
    <Stack gap="md" maw={900}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('analysis.upload.title')}
        </Title>
        <Button component={Link} to={routes.analysisHistory} variant="subtle">
          {t('analysis.history.title')}
        </Button>
      </Group>
      <Text c="dimmed">{t('analysis.upload.intro')}</Text>
      {/* Not above an answer: a rust answer opens a follow-up, whose offer would come a moment after the
          screen was brought to the answer and push it down the phone. A next leaf picked clears the answer. */}
      {!answer && (
        <FollowUpChoice
          followUpOf={followUpOf}
          first={first.data}
          firstFailed={first.isError}
          onChoose={(id) => setParams(id === null ? {} : { follow_up: String(id) }, { replace: true })}
          disabled={busy}
        />
      )}
      <Deferred>
        <FieldChoice
          chosen={farmField}
          onChoose={setFarmField}
          preferred={idParam(params, 'field') ?? first.data?.field?.id ?? null}
          crop={crop}
          // A follow-up photo is of the first diagnosis's field (the server refuses another).
          disabled={busy || followUpOf !== null}
        />
      </Deferred>

      <SimpleGrid cols={{ base: 1, md: result || offlineResult ? 1 : 2 }} spacing="md">
        <Stack gap="xs">
          <Text size="sm" data-testid="upload-leaves-ask">
            {t('analysis.upload.leavesAsk', { max: MAX_FIELD_PHOTOS })}
          </Text>
          <PhotoPicker
            onPick={onDropAny}
            disabled={busy || (leaves.length >= MAX_FIELD_PHOTOS && !answer)}
            label={t('analysis.upload.dropLabel')}
            testId="image-dropzone"
          />
          {error && (
            <Text c="red" size="sm" role="alert" data-testid="upload-error">
              {error}
            </Text>
          )}

          <FieldLeavesLater leaves={leaves} onRemove={remove} disabled={busy} />

          {(stage === 'uploading' || stage === 'analysing') && (
            <Stack gap={4} data-testid="upload-progress">
              <Text size="sm">
                {sending > 0 && `${t('analysis.upload.sendingLeaf', { n: sending, total: leaves.length })} · `}
                {stage === 'uploading'
                  ? t('analysis.upload.uploading', { percent: Math.round(sent * 100) })
                  : t('analysis.upload.analysing')}
              </Text>
              <ProgressLater
                value={stage === 'uploading' ? sent * 100 : 100}
                animated={stage === 'analysing'}
                striped={stage === 'analysing'}
                aria-label={t('analysis.upload.progressLabel')}
              />
            </Stack>
          )}

          <Stack gap={4}>
            <Text size="sm" fw={500} id="crop-label">
              {t('analysis.upload.crop')}
            </Text>
            <CropChoice
              labelledBy="crop-label"
              value={crop}
              onChange={chooseCrop}
              disabled={busy || Boolean(followedCrop)}
            />
          </Stack>

          <Group>
            <Button
              onClick={process}
              loading={busy}
              disabled={stage === 'preparing'}
              leftSection={<IconUpload size={18} />}
            >
              {t('analysis.upload.process')}
            </Button>
          </Group>
          <Suspense fallback={null}>
            <offlineCard.Component />
          </Suspense>
        </Stack>

        {answer && (
          <Stack gap="sm" component="section" aria-labelledby="analysis-result-heading" data-testid="analysis-answer">
            <Title
              order={2}
              size="h3"
              id="analysis-result-heading"
              ref={resultHeading}
              tabIndex={-1}
              style={{ scrollMarginTop: 'calc(var(--app-shell-header-offset, 0px) + 0.5rem)', outline: 'none' }}
            >
              {t('analysis.upload.resultHeading')}
            </Title>
            {result && ResultWithReview && <ResultWithReview result={result} />}
            {offlineResult && <OfflineResultLater result={offlineResult} />}
          </Stack>
        )}
      </SimpleGrid>
    </Stack>
  );
}
