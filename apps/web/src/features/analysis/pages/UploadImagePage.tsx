import '@mantine/dropzone/styles.css';
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CloseButton,
  Group,
  Image,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { FileRejection } from '@mantine/dropzone';
import { IconBellRinging, IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AnalysisCrop, AnalysisResult } from '@kutu/contract';
import { analysisCrops } from '@kutu/contract/enums';
import { routes } from '../../../config/routes.ts';
import { ApiError } from '../../../lib/api.ts';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify.ts';
import { OfflineCard } from '../../../components/offline/OfflineCard.tsx';
import { OfflineResult } from '../components/OfflineResult.tsx';
import { diagnoseOffline, useOfflineDiagnosis } from '../../../lib/offline/diagnose.ts';
import { analysisKeys, analysisQuery, uploadForAnalysis, type UploadStage } from '../../../api/analysis.ts';
import { formatDate } from '../../../lib/format.ts';
import { useMe } from '../../../api/profile.ts';
import { ResultWithReview } from '../components/ResultWithReview.tsx';
import { PhotoPicker } from '../../../components/PhotoPicker/PhotoPicker.tsx';
import { photoSizesLabel, preparePhoto, rejectionKey, type PreparedPhoto } from '../../../lib/shrink.ts';

type Stage = 'idle' | 'preparing' | UploadStage;

/** The crop a farmer most likely photographs: the first of maize or beans among their profile's crops. */
export function defaultCrop(cropTypes: string[] | undefined): AnalysisCrop {
  const upper = (cropTypes ?? []).map((c) => c.toUpperCase());
  if (upper.includes('MAIZE')) return 'maize';
  if (upper.includes('BEANS')) return 'beans';
  return upper.length > 0 ? 'other' : 'maize';
}

/** `?follow_up=<id>` (the reminder's link): the diagnosis whose field this photo checks again, if any. */
function followUpParam(params: URLSearchParams): number | null {
  const id = Number(params.get('follow_up'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

export default function UploadImagePage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const followUpOf = followUpParam(params);
  // The first diagnosis: its date for the banner and its crop (the same field) for the upload.
  const first = useQuery({ ...analysisQuery(followUpOf ?? 0), enabled: followUpOf !== null });
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [prepared, setPrepared] = useState<PreparedPhoto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stage, setStage] = useState<Stage>('idle');
  const [sent, setSent] = useState(0);
  const [result, setResult] = useState<AnalysisResult | null>(null);
  const [offlineResult, setOfflineResult] = useState<AnalysisResult | null>(null);
  const offline = useOfflineDiagnosis();
  const busy = stage !== 'idle';
  const me = useMe();
  const [chosenCrop, setCrop] = useState<AnalysisCrop | null>(null);
  const crop = chosenCrop ?? first.data?.crop ?? defaultCrop(me.data?.farmer?.crop_types);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const answer = result ?? offlineResult;

  // A new answer: bring the farmer to it (below the fold on a phone) and tell screen readers where it is.
  // Only once the upload's progress bar above it is gone, or the answer would slide under the top bar.
  useEffect(() => {
    if (!answer || busy) return;
    const heading = resultHeading.current;
    if (!heading) return;
    heading.focus({ preventScroll: true });
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    heading.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  }, [answer, busy]);

  // The preview's object URL lives as long as the chosen file.
  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function showError(message: string) {
    setError(message);
    notifyError(message);
  }

  function clear() {
    setFile(null);
    setPreview(null);
    setPrepared(null);
    setError(null);
  }

  /** Every drop or pick: any refused file (a second one included) refuses the whole drop, with the reason. */
  function onDropAny(files: File[], rejections: FileRejection[]) {
    if (rejections.length > 0) {
      showError(t(rejectionKey(rejections)));
      return;
    }
    const chosen = files[0];
    if (!chosen) return;
    setError(null);
    setResult(null);
    setOfflineResult(null);
    setPrepared(null);
    setFile(chosen);
    setStage('preparing');
    // Size and format are checked on what will be sent, after shrinking (decision 0018).
    preparePhoto(chosen)
      .then(({ photo, refusal }) => {
        if (refusal) {
          clear();
          showError(t(refusal));
        } else setPrepared(photo);
      })
      .finally(() => setStage('idle'));
  }

  async function process() {
    if (!file) {
      showError(t('analysis.upload.missing'));
      return;
    }
    const photo = prepared ?? { blob: file, filename: file.name, resized: false };
    if (!navigator.onLine) {
      await processOffline(photo);
      return;
    }
    const form = new FormData();
    form.append('crop', crop);
    if (followUpOf !== null) form.append('follow_up_of', String(followUpOf));
    form.append('image', photo.blob, photo.filename);
    setError(null);
    setSent(0);
    setStage('uploading');
    try {
      const analysed = await uploadForAnalysis(form, (s, fraction) => {
        setStage(s);
        setSent(fraction);
      });
      setResult(analysed);
      clear();
      // Answered: a next photo is not this follow-up again.
      if (followUpOf !== null) setParams({}, { replace: true });
      // An unsure answer or no leaf is no success: said plainly, with no "Success" over it.
      if (analysed.unsure || analysed.outcome === 'not_leaf') notifyInfo(t('analysis.upload.checked'));
      else notifySuccess(t('analysis.upload.done'));
      await client.invalidateQueries({ queryKey: analysisKeys.all });
    } catch (err) {
      // The signal dropped during the upload: diagnose on the phone instead, when it can.
      if (err instanceof ApiError && err.status === 0 && offline.available) await processOffline(photo);
      else showError((err as Error).message || t('analysis.upload.failed'));
    } finally {
      setStage('idle');
    }
  }

  /** No network: the phone diagnoses the photo and queues it for the server (features/offline). */
  async function processOffline(photo: { blob: Blob; filename: string }) {
    if (!offline.available) {
      showError(t('offline.noModel'));
      return;
    }
    setError(null);
    setStage('analysing');
    try {
      setOfflineResult(await diagnoseOffline({ blob: photo.blob, filename: photo.filename, crop }));
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
      {followUpOf !== null && !first.isError && (
        <Alert color="blue" icon={<IconBellRinging />} data-testid="follow-up-banner">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              {first.data
                ? t('analysis.followUp.checking', { date: formatDate(first.data.created_at) })
                : t('analysis.followUp.checkingNoDate')}
            </Text>
            <Button size="compact-sm" variant="subtle" onClick={() => setParams({}, { replace: true })}>
              {t('analysis.followUp.notFollowUp')}
            </Button>
          </Stack>
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, md: result || offlineResult ? 1 : 2 }} spacing="md">
        <Stack gap="xs">
          <PhotoPicker
            onPick={onDropAny}
            disabled={busy}
            label={t('analysis.upload.dropLabel')}
            testId="image-dropzone"
          />
          {error && (
            <Text c="red" size="sm" role="alert" data-testid="upload-error">
              {error}
            </Text>
          )}

          {file && preview && (
            <Card withBorder padding="sm" data-testid="upload-preview">
              <Group align="flex-start" wrap="nowrap">
                <Image src={preview} alt={t('analysis.upload.previewAlt')} w={120} h={120} fit="cover" radius="sm" />
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  <Text fw={500} truncate>
                    {file.name}
                  </Text>
                  <Text size="sm" c="dimmed" data-testid="upload-sizes">
                    {photoSizesLabel(t, file, prepared)}
                  </Text>
                </Stack>
                <CloseButton aria-label={t('analysis.upload.remove')} onClick={clear} disabled={busy} />
              </Group>
            </Card>
          )}

          {(stage === 'uploading' || stage === 'analysing') && (
            <Stack gap={4} data-testid="upload-progress">
              <Text size="sm">
                {stage === 'uploading'
                  ? t('analysis.upload.uploading', { percent: Math.round(sent * 100) })
                  : t('analysis.upload.analysing')}
              </Text>
              <Progress
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
            <SegmentedControl
              aria-labelledby="crop-label"
              value={crop}
              onChange={(v) => setCrop(v as AnalysisCrop)}
              data={analysisCrops.map((c) => ({ value: c, label: t(`review.crop.${c}`) }))}
              disabled={busy}
              data-testid="crop-choice"
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
          <OfflineCard />
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
            {result && <ResultWithReview result={result} />}
            {offlineResult && <OfflineResult result={offlineResult} />}
          </Stack>
        )}
      </SimpleGrid>
    </Stack>
  );
}
