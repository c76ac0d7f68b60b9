import { Center, Image, Loader } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import { useAnalysisImage } from '../api/analysis.ts';

/** The stored photo of an analysis (loaded with the bearer token). */
export function AnalysisPhoto({
  id,
  imageUrl,
  size,
  alt,
}: {
  id: number;
  imageUrl: string;
  size: number;
  alt: string;
}) {
  const img = useAnalysisImage(id, imageUrl);
  if (img.isPending) {
    return (
      <Center w={size} h={size}>
        <Loader size="sm" />
      </Center>
    );
  }
  if (img.isError) {
    return (
      <Center w={size} h={size} bg="gray.1" style={{ borderRadius: 8 }} title="The photo could not be loaded">
        <IconPhotoOff size={size / 3} color="gray" />
      </Center>
    );
  }
  return <Image src={img.data} alt={alt} w={size} h={size} fit="cover" radius="md" />;
}
