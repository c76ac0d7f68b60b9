import { useEffect, useState } from 'react';
import { AspectRatio, Center, Image, Loader, Text } from '@mantine/core';
import { useInViewport } from '@mantine/hooks';
import { IconPhotoOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePostImage } from '../../../api/community.ts';

/**
 * A post's photo, loaded lazily: only once the card scrolls into view (at once where the browser
 * cannot tell). The alternative text is the post's title.
 */
export function PostImage({ postId, url, title }: { postId: number; url: string; title: string }) {
  const { t } = useTranslation();
  const { ref, inViewport } = useInViewport();
  const canObserve = typeof IntersectionObserver !== 'undefined';
  const [seen, setSeen] = useState(!canObserve);
  useEffect(() => {
    if (inViewport) setSeen(true);
  }, [inViewport]);
  const img = usePostImage(postId, url, seen);
  return (
    <AspectRatio ratio={4 / 3} ref={ref} data-testid={`post-image-${postId}`}>
      {img.data ? (
        <Image src={img.data} alt={title} loading="lazy" fit="cover" radius="sm" />
      ) : img.isError ? (
        <Center bg="gray.1" style={{ borderRadius: 4 }} title={t('community.photoFailed')}>
          <IconPhotoOff size={32} color="gray" aria-hidden />
          <Text size="xs" c="dimmed" ml={6}>
            {t('community.photoFailed')}
          </Text>
        </Center>
      ) : (
        <Center bg="gray.0" style={{ borderRadius: 4 }}>
          <Loader size="sm" />
        </Center>
      )}
    </AspectRatio>
  );
}
