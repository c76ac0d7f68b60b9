import { useState } from 'react';
import { Alert, Progress, Stack, Text } from '@mantine/core';
import { IconPhotoPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { useAddFieldPhoto } from '../../../api/analysis.ts';
import { PhotoPicker, type PhotoRejection } from '../../../components/PhotoPicker/PhotoPicker.tsx';
import { ApiError } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { enqueue } from '../../../lib/offline/queue.ts';
import { offlineSupported } from '../../../lib/offline/store.ts';
import { preparePhoto, rejectionKey } from '../../../lib/shrink.ts';

/**
 * While the field answer can take more leaves (the server's `second_photo.photos_left`), takes a photo
 * of another leaf from the same field; the answer shown becomes the field's answer from all its photos
 * (docs/decisions/0040, 0048). When unsure or close between two classes it says why in plain words;
 * when sure, that more leaves make it surer.
 */
export function MorePhotos({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  const add = useAddFieldPhoto(result.id);
  const [preparing, setPreparing] = useState(false);
  const [queued, setQueued] = useState(false);
  const ask = result.second_photo;
  if (ask.photos_left === 0 || !result.rust_class) return null;
  const asking = ask.reason !== null && ask.runner_up !== null;
  const busy = preparing || add.isPending;

  async function enqueueLeaf(chosen: File) {
    const { photo } = await preparePhoto(chosen);
    await enqueue({ ...photo, crop: result.crop ?? 'other', analysisId: result.id });
    setQueued(true);
  }

  async function onPick(files: File[], rejections: PhotoRejection[]) {
    if (rejections.length > 0) {
      notifyError(t(rejectionKey(rejections)));
      return;
    }
    const chosen = files[0];
    if (!chosen) return;
    setPreparing(true);
    try {
      const { photo, refusal } = await preparePhoto(chosen);
      if (refusal) {
        notifyError(t(refusal));
        return;
      }
      setPreparing(false);
      const updated = await add.mutateAsync(photo);
      notifySuccess(t('analysis.more.fieldAnswer', { count: updated.photos.length }));
    } catch (err) {
      // No signal: the phone keeps the photo and sends it when the network is back (OfflineSync).
      if (err instanceof ApiError && err.status === 0 && offlineSupported()) {
        await enqueueLeaf(chosen);
        return;
      }
      notifyError((err as Error).message || t('analysis.upload.failed'));
    } finally {
      setPreparing(false);
    }
  }

  return (
    <Alert
      color={asking ? 'blue' : 'gray'}
      icon={<IconPhotoPlus />}
      title={t(asking ? 'analysis.more.title' : 'analysis.more.titleSure')}
      data-testid="more-photos"
    >
      <Stack gap="xs">
        <Text size="sm" data-testid="more-photos-why">
          {asking
            ? t(`analysis.more.why.${ask.reason}`, {
                first: t(`analysis.more.class.${result.rust_class}`),
                second: t(`analysis.more.class.${ask.runner_up}`),
              })
            : t('analysis.more.whySure')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('analysis.more.left', { count: ask.photos_left })}
        </Text>
        <PhotoPicker onPick={onPick} disabled={busy} label={t('analysis.more.pick')} testId="more-photos-picker" />
        {queued && (
          <Text size="sm" data-testid="more-photos-queued">
            {t('analysis.more.queued')}
          </Text>
        )}
        {busy && (
          <Stack gap={4} data-testid="more-photos-progress">
            <Text size="sm">{t('analysis.more.checking')}</Text>
            <Progress value={100} animated striped aria-label={t('analysis.more.checking')} />
          </Stack>
        )}
      </Stack>
    </Alert>
  );
}
