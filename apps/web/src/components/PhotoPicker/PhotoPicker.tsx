import { useRef } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useMediaQuery } from '@mantine/hooks';
import { IconCamera, IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Any image the browser can open: size and format are settled after it is shrunk on the phone. */
const ANY_IMAGE = ['image/*'];

export interface PhotoPickerProps {
  /** Every pick, drop or camera shot; a refused file (not an image, or more than one) comes as a rejection. */
  onPick: (files: File[], rejections: FileRejection[]) => void;
  disabled?: boolean;
  /** Accessible name of the drop zone. */
  label: string;
  testId?: string;
}

/**
 * One leaf photo from the camera, the gallery or (on a computer) a drag and drop. On a touch screen
 * the wording says "take" and "choose", never "drag … or click", and the camera button opens the
 * back camera directly (`capture="environment"`); the gallery button opens the plain picker, which
 * phones also fill from their files (decision 0018).
 */
export function PhotoPicker({ onPick, disabled = false, label, testId }: PhotoPickerProps) {
  const { t } = useTranslation();
  const touch = useMediaQuery('(pointer: coarse)', undefined, { getInitialValueInEffect: false });
  const openGallery = useRef<() => void>(null);
  const camera = useRef<HTMLInputElement>(null);

  return (
    <Stack gap="xs">
      <Dropzone
        openRef={openGallery}
        onDropAny={onPick}
        onDrop={() => undefined}
        accept={ANY_IMAGE}
        maxFiles={1}
        multiple={false}
        disabled={disabled}
        activateOnClick={!touch}
        aria-label={label}
        data-testid={testId}
      >
        <Group justify="center" gap="md" mih={touch ? 96 : 140} style={{ pointerEvents: 'none' }} wrap="nowrap">
          <Dropzone.Accept>
            <IconUpload size={40} stroke={1.5} aria-hidden />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={40} stroke={1.5} aria-hidden />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconPhoto size={40} stroke={1.5} aria-hidden />
          </Dropzone.Idle>
          <div>
            <Text size="lg">{touch ? t('photoPicker.touchTitle') : t('photoPicker.dropTitle')}</Text>
            <Text size="sm" c="dimmed">
              {t('photoPicker.hint')}
            </Text>
          </div>
        </Group>
      </Dropzone>
      <Group grow gap="xs">
        {touch && (
          <Button leftSection={<IconCamera size={18} />} onClick={() => camera.current?.click()} disabled={disabled}>
            {t('photoPicker.camera')}
          </Button>
        )}
        <Button
          variant={touch ? 'default' : 'light'}
          leftSection={<IconPhoto size={18} />}
          onClick={() => openGallery.current?.()}
          disabled={disabled}
        >
          {touch ? t('photoPicker.gallery') : t('photoPicker.choose')}
        </Button>
      </Group>
      <input
        ref={camera}
        type="file"
        accept="image/*"
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
