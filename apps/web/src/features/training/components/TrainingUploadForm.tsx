import '@mantine/dropzone/styles.css';
import { useState } from 'react';
import { Button, CloseButton, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useTranslation } from 'react-i18next';
import { IMAGE_MAX_BYTES, imageUploadMessages, TRAINING_MAX_FILES, trainingMessages } from '@kutu/contract/enums';
import type { TrainingLabel } from '@kutu/contract';
import { ApiError } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useUploadTrainingImages } from '../../../api/training.ts';
import { labelOptions } from './labels.ts';

let nextKey = 0;
interface Picked {
  key: number;
  file: File;
}

const ACCEPT = { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'] };

function rejectionMessage(rejections: FileRejection[]): string {
  const code = rejections[0]?.errors[0]?.code;
  if (code === 'file-too-large') return imageUploadMessages.tooBig;
  if (code === 'too-many-files') return `You can upload at most ${TRAINING_MAX_FILES} images at a time`;
  return imageUploadMessages.unsupported;
}

/** The spec's Model Training form: drop zone, label dropdown, Submit for Training (several images allowed). */
export function TrainingUploadForm() {
  const { t } = useTranslation();
  const [files, setFiles] = useState<Picked[]>([]);
  const [label, setLabel] = useState<TrainingLabel | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useUploadTrainingImages();

  const submit = () => {
    if (files.length === 0) {
      setError(trainingMessages.noImage);
      notifyError(trainingMessages.noImage);
      return;
    }
    if (!label) {
      setError(trainingMessages.noLabel);
      notifyError(trainingMessages.noLabel);
      return;
    }
    setError(null);
    upload.mutate(
      { files: files.map((p) => p.file), label },
      {
        onSuccess: (reply) => {
          notifySuccess(trainingMessages.submitted);
          if (reply.job_id) notifySuccess(t('training.autoStarted', { id: reply.job_id }));
          setFiles([]);
          setLabel(null);
        },
        onError: (err) => {
          const message = err instanceof ApiError && err.status > 0 ? err.message : trainingMessages.failed;
          setError(message);
          notifyError(message || trainingMessages.failed);
        },
      },
    );
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Title order={3}>{t('training.submitTitle')}</Title>
        <Dropzone
          onDrop={(accepted) => {
            setError(null);
            setFiles((prev) =>
              [...prev, ...accepted.map((file) => ({ key: nextKey++, file }))].slice(0, TRAINING_MAX_FILES),
            );
          }}
          onReject={(rejections) => setError(rejectionMessage(rejections))}
          accept={ACCEPT}
          maxSize={IMAGE_MAX_BYTES}
          maxFiles={TRAINING_MAX_FILES}
          multiple
          loading={upload.isPending}
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
              <Group key={key} gap="xs" justify="space-between">
                <Text size="sm">{file.name}</Text>
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
          data={[{ value: '', label: t('training.labelPlaceholder'), disabled: true }, ...labelOptions]}
          value={label ?? ''}
          onChange={(e) => setLabel((e.currentTarget.value as TrainingLabel) || null)}
        />
        {error && (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button onClick={submit} loading={upload.isPending}>
            {t('training.submit')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
