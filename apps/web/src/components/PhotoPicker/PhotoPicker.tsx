import { type DragEvent, useRef, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCamera, IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './PhotoPicker.module.css';

/** Any image the browser can open: size and format are settled after it is shrunk on the phone. */
const ANY_IMAGE = 'image/*';
const isImage = (type: string) => type.startsWith('image/');

/** A refused file and why, with react-dropzone's codes (what lib/shrink.ts `rejectionKey` reads). */
export interface PhotoRejection {
  file: File;
  errors: { code: 'too-many-files' | 'file-invalid-type' }[];
}

export interface PhotoPickerProps {
  /** Every pick, drop or camera shot; a refused file (not an image, or more than one) comes as a rejection. */
  onPick: (files: File[], rejections: PhotoRejection[]) => void;
  disabled?: boolean;
  /** Accessible name of the drop zone. */
  label: string;
  testId?: string;
}

/**
 * The files picked or dropped, one image at most: a second file refuses them all (`too-many-files`),
 * a file that is not an image is refused (`file-invalid-type`), as react-dropzone reported them
 * (lib/shrink.ts `rejectionKey` reads the codes). What the image holds is checked once it is shrunk.
 */
function sortPicked(files: File[]): [File[], PhotoRejection[]] {
  if (files.length > 1) return [[], files.map((file) => ({ file, errors: [{ code: 'too-many-files' as const }] }))];
  const accepted = files.filter((file) => isImage(file.type));
  const refused = files
    .filter((file) => !isImage(file.type))
    .map((file) => ({
      file,
      errors: [{ code: 'file-invalid-type' as const }],
    }));
  return [accepted, refused];
}

/** What a drag over the zone carries: one image (accept), anything else (reject). */
function dragKind(event: DragEvent): 'accept' | 'reject' | null {
  const items = [...event.dataTransfer.items].filter((item) => item.kind === 'file');
  if (items.length === 0) return null;
  return items.length === 1 && isImage(items[0]!.type) ? 'accept' : 'reject';
}

/**
 * One leaf photo from the camera, the gallery or (on a computer) a drag and drop. On a touch screen
 * the wording says "take" and "choose", never "drag … or click", and the camera button opens the
 * back camera directly (`capture="environment"`); the gallery button opens the plain picker, which
 * phones also fill from their files (decision 0018). The drop zone is the browser's file input and
 * drag events, styled as Mantine's Dropzone was (decision 0121: its package stays off these screens).
 */
export function PhotoPicker({ onPick, disabled = false, label, testId }: PhotoPickerProps) {
  const { t } = useTranslation();
  const touch = useMediaQuery('(pointer: coarse)', undefined, { getInitialValueInEffect: false });
  const gallery = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [drag, setDrag] = useState<'accept' | 'reject' | null>(null);
  const openGallery = () => {
    if (!disabled) gallery.current?.click();
  };
  const pick = (files: File[]) => onPick(...sortPicked(files));

  const onDrag = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (disabled) return;
    event.dataTransfer.dropEffect = 'copy';
    setDrag(dragKind(event));
  };

  return (
    <Stack gap="xs">
      <div
        role="presentation"
        tabIndex={disabled ? -1 : 0}
        aria-label={label}
        data-testid={testId}
        className={classes.zone}
        data-accept={drag === 'accept' || undefined}
        data-reject={drag === 'reject' || undefined}
        data-idle={drag === null || undefined}
        data-disabled={disabled || undefined}
        data-activate-on-click={!touch || undefined}
        onClick={touch ? undefined : openGallery}
        onKeyDown={(event) => {
          if (event.key !== 'Enter' && event.key !== ' ') return;
          event.preventDefault();
          openGallery();
        }}
        onDragEnter={onDrag}
        onDragOver={onDrag}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDrag(null);
        }}
        onDrop={(event) => {
          event.preventDefault();
          event.stopPropagation();
          setDrag(null);
          if (!disabled) pick([...event.dataTransfer.files]);
        }}
      >
        <input
          ref={gallery}
          type="file"
          accept={ANY_IMAGE}
          tabIndex={-1}
          hidden
          disabled={disabled}
          onClick={(e) => e.stopPropagation()}
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = '';
            if (files.length > 0) pick(files);
          }}
        />
        <Group justify="center" gap="md" mih={touch ? 96 : 140} style={{ pointerEvents: 'none' }} wrap="nowrap">
          {drag === 'accept' ? (
            <IconUpload size={40} stroke={1.5} aria-hidden />
          ) : drag === 'reject' ? (
            <IconX size={40} stroke={1.5} aria-hidden />
          ) : (
            <IconPhoto size={40} stroke={1.5} aria-hidden />
          )}
          <div>
            <Text size="lg">{touch ? t('photoPicker.touchTitle') : t('photoPicker.dropTitle')}</Text>
            <Text size="sm" c="dimmed">
              {t('photoPicker.hint')}
            </Text>
          </div>
        </Group>
      </div>
      <Group grow gap="xs">
        {touch && (
          <Button leftSection={<IconCamera size={18} />} onClick={() => camera.current?.click()} disabled={disabled}>
            {t('photoPicker.camera')}
          </Button>
        )}
        <Button
          variant={touch ? 'default' : 'light'}
          leftSection={<IconPhoto size={18} />}
          onClick={openGallery}
          disabled={disabled}
        >
          {touch ? t('photoPicker.gallery') : t('photoPicker.choose')}
        </Button>
      </Group>
      <input
        ref={camera}
        type="file"
        accept={ANY_IMAGE}
        capture="environment"
        hidden
        data-testid={testId ? `${testId}-camera` : undefined}
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          e.currentTarget.value = '';
          if (files.length > 0) onPick(files.slice(0, 1), []);
        }}
      />
    </Stack>
  );
}
