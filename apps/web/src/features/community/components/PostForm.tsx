import '@mantine/dropzone/styles.css';
import { useEffect, useState } from 'react';
import { Button, CloseButton, Group, Image, Input, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { IMAGE_MAX_BYTES, POST_CONTENT_MAX, POST_TITLE_MAX, postCreateBody } from '@kutu/contract';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { photoSizesLabel, shrinkPhoto, type PreparedPhoto } from '../../analysis/lib/shrink.ts';
import { useCreatePost } from '../api/community.ts';
import { cropOptions, diseaseOptions, urgencyOptions } from './labels.ts';

const ACCEPT = { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'] };

/** The analysis upload's messages for a file the drop zone refuses. */
function rejectionKey(rejections: FileRejection[]): string {
  const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
  if (codes.includes('too-many-files') || rejections.length > 1) return 'analysis.upload.tooMany';
  if (codes.includes('file-too-large')) return 'analysis.upload.tooBig';
  if (codes.includes('file-invalid-type')) return 'analysis.upload.unsupported';
  return 'analysis.upload.failed';
}

const empty = { title: '', content: '', crop_type: '', disease_type: '', urgency_level: '' };
type Values = typeof empty;

/** First message per field of a failed parse. */
function issuesByField(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}

/** Add a Post: checked with the same contract schema as the server before it is sent. */
export function PostForm() {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [prepared, setPrepared] = useState<PreparedPhoto | null>(null);
  const create = useCreatePost();

  // The preview's object URL lives as long as the chosen file.
  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  function clearPhoto() {
    setFile(null);
    setPrepared(null);
    setErrors(({ image: _, ...rest }) => rest);
  }

  /** A drop or pick: shrunk in the browser like the analysis upload; a refused file says why. */
  function onDropAny(files: File[], rejections: FileRejection[]) {
    if (rejections.length > 0) {
      const message = t(rejectionKey(rejections));
      setErrors((e) => ({ ...e, image: message }));
      notifyError(message, t('community.notices.error'));
      return;
    }
    const chosen = files[0];
    if (!chosen) return;
    setErrors(({ image: _, ...rest }) => rest);
    setFile(chosen);
    setPrepared(null);
    shrinkPhoto(chosen)
      .then(setPrepared)
      .catch(() => setPrepared({ blob: chosen, filename: chosen.name, resized: false }));
  }

  const set = (field: keyof Values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = postCreateBody.safeParse(values);
    if (!parsed.success) {
      setErrors(issuesByField(parsed.error.issues));
      return;
    }
    const photo = file ? (prepared ?? { blob: file, filename: file.name }) : null;
    create.mutate(
      { body: parsed.data, photo },
      {
        onSuccess: () => {
          notifySuccess(t('community.notices.postSubmitted'), t('community.notices.success'));
          setValues(empty);
          setErrors({});
          setFile(null);
          setPrepared(null);
        },
        onError: (err) => {
          const fieldErrors = err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length > 0;
          if (fieldErrors) {
            setErrors(err.fields);
            notifyError(t('community.notices.fillAllFields'), t('community.notices.error'));
          } else if (err instanceof ApiError && photo && [400, 413, 415].includes(err.status)) {
            // The server judged the photo by its content (damaged, too big, not a JPEG or PNG).
            setErrors((e) => ({ ...e, image: err.message }));
            notifyError(err.message, t('community.notices.error'));
          } else {
            notifyError(errorMessage(err), t('community.notices.error'));
          }
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('community.addPost')}>
      <Stack gap="sm">
        <TextInput
          label={t('community.fields.title')}
          placeholder={t('community.fields.titlePlaceholder')}
          withAsterisk
          maxLength={POST_TITLE_MAX}
          value={values.title}
          onChange={(e) => set('title')(e.currentTarget.value)}
          error={errors.title}
        />
        <Textarea
          label={t('community.fields.content')}
          placeholder={t('community.fields.contentPlaceholder')}
          withAsterisk
          autosize
          minRows={4}
          maxRows={10}
          maxLength={POST_CONTENT_MAX}
          value={values.content}
          onChange={(e) => set('content')(e.currentTarget.value)}
          error={errors.content}
        />
        <Select
          label={t('community.fields.cropType')}
          withAsterisk
          data={cropOptions}
          value={values.crop_type || null}
          onChange={(v) => set('crop_type')(v ?? '')}
          error={errors.crop_type}
        />
        <Select
          label={t('community.fields.disease')}
          withAsterisk
          data={diseaseOptions}
          value={values.disease_type || null}
          onChange={(v) => set('disease_type')(v ?? '')}
          error={errors.disease_type}
        />
        <Select
          label={t('community.fields.urgencyLevel')}
          withAsterisk
          data={urgencyOptions}
          value={values.urgency_level || null}
          onChange={(v) => set('urgency_level')(v ?? '')}
          error={errors.urgency_level}
        />
        <Input.Wrapper label={t('community.fields.photo')} error={errors.image}>
          {file && preview ? (
            <Group align="flex-start" wrap="nowrap" mt={4} data-testid="post-photo-preview">
              <Image src={preview} alt={t('community.fields.photoPreviewAlt')} w={96} h={96} fit="cover" radius="sm" />
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  {file.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {photoSizesLabel(t, file, prepared)}
                </Text>
              </Stack>
              <CloseButton
                aria-label={t('community.fields.removePhoto')}
                onClick={clearPhoto}
                disabled={create.isPending}
              />
            </Group>
          ) : (
            <Dropzone
              onDropAny={onDropAny}
              onDrop={() => undefined}
              accept={ACCEPT}
              maxSize={IMAGE_MAX_BYTES}
              maxFiles={1}
              multiple={false}
              disabled={create.isPending}
              aria-label={t('community.fields.photo')}
              data-testid="post-photo-dropzone"
              mt={4}
              p="sm"
            >
              <Group justify="center" gap="sm" wrap="nowrap" style={{ pointerEvents: 'none' }}>
                <IconPhoto size={28} stroke={1.5} />
                <div>
                  <Text size="sm">{t('community.fields.photoDrop')}</Text>
                  <Text size="xs" c="dimmed">
                    {t('community.fields.photoHint')}
                  </Text>
                </div>
              </Group>
            </Dropzone>
          )}
        </Input.Wrapper>
        <Button type="submit" loading={create.isPending} disabled={Boolean(file) && !prepared}>
          {t('community.actions.submit')}
        </Button>
      </Stack>
    </form>
  );
}
