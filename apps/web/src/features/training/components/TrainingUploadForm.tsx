import '@mantine/dropzone/styles.css';
import { useState } from 'react';
import { Button, CloseButton, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useTranslation } from 'react-i18next';
import { TRAINING_MAX_FILES } from '@kutu/contract/enums';
import type { TrainingLabel } from '@kutu/contract';
import { ApiError } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { ANY_IMAGE, preparePhoto, rejectionKey } from '../../../lib/shrink.ts';
import { useUploadTrainingImages } from '../../../api/training.ts';
import { labelOptions } from './labels.ts';

let nextKey = 0;
interface Picked {
  key: number;
  /** What is sent: the photo as shrunk on this device, under the name the expert picked. */
  file: File;
}

/** The spec's Model Training form: drop zone, label dropdown, Submit for Training (several images allowed). */
export function TrainingUploadForm() {
  const { t } = useTranslation();
  const [files, setFiles] = useState<Picked[]>([]);
  const [label, setLabel] = useState<TrainingLabel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  const upload = useUploadTrainingImages();

  const fail = (message: string) => {
    setError(message);
    notifyError(message);
  };

  /**
   * Every photo is shrunk on this device like a diagnosis photo (one shared function), then judged:
   * a refused one is named with the real reason, and the others are kept (decision 0018).
   */
  const onDropAny = async (accepted: File[], rejections: FileRejection[]) => {
    const reasons = rejections.map((r) =>
      t('training.refused', { name: r.file.name, reason: t(rejectionKey([r], false)) }),
    );
    if (rejections.some((r) => r.errors.some((e) => e.code === 'too-many-files'))) {
      reasons.splice(0, reasons.length, t('training.tooMany', { max: TRAINING_MAX_FILES }));
    }
    setPreparing(true);
    const prepared = await Promise.all(accepted.map(async (file) => ({ file, ...(await preparePhoto(file)) })));
    setPreparing(false);
    const kept: Picked[] = [];
    for (const { file, photo, refusal } of prepared) {
      if (refusal) reasons.push(t('training.refused', { name: file.name, reason: t(refusal) }));
      else kept.push({ key: nextKey++, file: new File([photo.blob], photo.filename, { type: photo.blob.type }) });
    }
    setFiles((prev) => [...prev, ...kept].slice(0, TRAINING_MAX_FILES));
    if (reasons.length > 0) fail(reasons.join(' · '));
    else setError(null);
  };

  const submit = () => {
    if (files.length === 0) return fail(t('training.noImage'));
    if (!label) return fail(t('training.noLabel'));
    setError(null);
    upload.mutate(
      { files: files.map((p) => p.file), label },
      {
        onSuccess: (reply) => {
          setError(null);
          notifySuccess(t('training.submitted'));
          if (reply.job_id) notifySuccess(t('training.autoStarted', { id: reply.job_id }));
          setFiles([]);
          setLabel(null);
        },
        onError: (err) => {
          const message = err instanceof ApiError && err.status > 0 ? err.message : '';
          fail(message || t('training.failed'));
        },
      },
    );
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Title order={3}>{t('training.submitTitle')}</Title>
        <Dropzone
          onDropAny={(accepted, rejections) => void onDropAny(accepted, rejections)}
          onDrop={() => undefined}
          accept={ANY_IMAGE}
          maxFiles={TRAINING_MAX_FILES}
          multiple
          loading={upload.isPending || preparing}
          aria-label={t('training.dropzone')}
          data-testid="training-dropzone"
        >
          <Stack align="center" gap={4} mih={100} justify="center">
            <Text fw={500}>{t('training.dropzone')}</Text>
            <Text size="sm" c="dimmed">
              {t('training.dropzoneHint', { max: TRAINING_MAX_FILES })}
            </Text>
          </Stack>
        </Dropzone>
        {files.length > 0 && (
          <Stack gap={4} aria-label={t('training.selectedFiles')}>
            {files.map(({ key, file }) => (
              <Group key={key} gap="xs" justify="space-between" wrap="nowrap">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {file.name}
                </Text>
                <CloseButton
                  size="sm"
                  aria-label={t('training.removeFile', { name: file.name })}
                  onClick={() => setFiles((prev) => prev.filter((p) => p.key !== key))}
                />
              </Group>
            ))}
          </Stack>
        )}
        <NativeSelect
          label={t('training.label')}
          data={[{ value: '', label: t('training.labelPlaceholder'), disabled: true }, ...labelOptions(t)]}
          value={label ?? ''}
          onChange={(e) => setLabel((e.currentTarget.value as TrainingLabel) || null)}
        />
        {error && (
          <Text c="red" size="sm" role="alert" data-testid="training-error">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button onClick={submit} loading={upload.isPending} disabled={preparing}>
            {t('training.submit')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
