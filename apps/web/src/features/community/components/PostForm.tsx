import '@mantine/dropzone/styles.css';
import { useEffect, useState } from 'react';
import {
  Button,
  CloseButton,
  Group,
  Image,
  Input,
  NativeSelect,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type CropType, POST_CONTENT_MAX, POST_TITLE_MAX, postCreateBody } from '@kutu/contract';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { ANY_IMAGE, photoSizesLabel, preparePhoto, rejectionKey, type PreparedPhoto } from '../../../lib/shrink.ts';
import { useCreatePost } from '../../../api/community.ts';
import { cropOptions, diseaseOptions, urgencyOptions } from './labels.ts';
import { translateErrors } from '../../../lib/validation.ts';
import { useContractForm } from '../../../lib/contract-form.ts';

// A farmer who does not know the disease says so: "I don't know" (`none`) is chosen at first.
const empty = { title: '', content: '', crop_type: '', disease_type: 'none', urgency_level: '' };

/**
 * Add a Post: checked with the same contract schema as the server before it is sent; the title shows
 * how many characters are left instead of cutting what the farmer types.
 */
export function PostForm({ onPosted }: { onPosted?: () => void } = {}) {
  const { t } = useTranslation();
  const form = useContractForm(postCreateBody, { initialValues: empty });
  const [imageError, setImageError] = useState<string | null>(null);
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
    setImageError(null);
  }

  /** A drop or pick: shrunk in the browser like the analysis upload; a refused file says why. */
  function onDropAny(files: File[], rejections: FileRejection[]) {
    if (rejections.length > 0) {
      const message = t(rejectionKey(rejections));
      setImageError(message);
      notifyError(message, t('community.notices.error'));
      return;
    }
    const chosen = files[0];
    if (!chosen) return;
    setImageError(null);
    setFile(chosen);
    setPrepared(null);
    // Shrunk first, then judged: a camera photo over 5 MB goes as a few hundred KB (decision 0018).
    void preparePhoto(chosen).then(({ photo, refusal }) => {
      if (refusal) {
        clearPhoto();
        const message = t(refusal);
        setImageError(message);
        notifyError(message, t('community.notices.error'));
      } else setPrepared(photo);
    });
  }

  function submit(values: typeof empty) {
    const parsed = postCreateBody.parse(values);
    const photo = file ? (prepared ?? { blob: file, filename: file.name }) : null;
    create.mutate(
      { body: parsed, photo },
      {
        onSuccess: () => {
          notifySuccess(t('community.notices.postSubmitted'), t('community.notices.success'));
          form.reset();
          clearPhoto();
          onPosted?.();
        },
        onError: (err) => {
          const fieldErrors = err instanceof ApiError && err.status === 400 && Object.keys(err.fields).length > 0;
          if (fieldErrors) {
            form.setErrors(translateErrors(err.fields));
            if (err.fields.image) setImageError(err.fields.image);
            notifyError(t('community.notices.fillAllFields'), t('community.notices.error'));
          } else if (err instanceof ApiError && photo && [400, 413, 415].includes(err.status)) {
            // The server judged the photo by its content (damaged, too big, not a JPEG or PNG).
            setImageError(err.message);
            notifyError(err.message, t('community.notices.error'));
          } else {
            notifyError(errorMessage(err), t('community.notices.error'));
          }
        },
      },
    );
  }

  // A required choice starts on a "Choose…" line the farmer cannot pick back: '' is "not chosen".
  const choose = { value: '', label: t('community.fields.choose'), disabled: true };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label={t('community.addPost')}>
      <Stack gap="sm">
        <TextInput
          label={t('community.fields.title')}
          placeholder={t('community.fields.titlePlaceholder')}
          withAsterisk
          description={t('community.fields.titleCounter', {
            count: form.values.title.length,
            max: POST_TITLE_MAX,
          })}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          key={form.key('title')}
          {...form.getInputProps('title')}
        />
        <Textarea
          label={t('community.fields.content')}
          placeholder={t('community.fields.contentPlaceholder')}
          withAsterisk
          autosize
          minRows={4}
          maxRows={10}
          description={t('community.fields.contentCounter', {
            count: form.values.content.length,
            max: POST_CONTENT_MAX,
          })}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          key={form.key('content')}
          {...form.getInputProps('content')}
        />
        <NativeSelect
          label={t('community.fields.cropType')}
          withAsterisk
          data={[choose, ...cropOptions(t)]}
          key={form.key('crop_type')}
          {...form.getInputProps('crop_type')}
        />
        <NativeSelect
          label={t('community.fields.diseaseOptional')}
          description={t('community.fields.diseaseHint')}
          data={diseaseOptions(t, form.values.crop_type as CropType | '')}
          key={form.key('disease_type')}
          {...form.getInputProps('disease_type')}
        />
        <NativeSelect
          label={t('community.fields.urgencyLevel')}
          withAsterisk
          data={[choose, ...urgencyOptions(t)]}
          key={form.key('urgency_level')}
          {...form.getInputProps('urgency_level')}
        />
        <Input.Wrapper label={t('community.fields.photo')} error={imageError}>
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
              accept={ANY_IMAGE}
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
