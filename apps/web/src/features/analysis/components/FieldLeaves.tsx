import { Card, CloseButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { photoSizesLabel, type PreparedPhoto } from '../../../lib/shrink.ts';

/** One chosen leaf of the field: the picked file, its preview URL, and the photo to send once shrunk. */
export interface Leaf {
  /** Unique on the page (a React key: the same file may be picked twice). */
  id: number;
  file: File;
  preview: string;
  prepared: PreparedPhoto | null;
  /** Its print (`printOfPhoto`): a leaf already chosen is not taken twice. */
  print: Promise<Uint8Array | null>;
}

/** The leaves chosen for one field answer (decision 0048), each with its sizes and a remove button. */
export function FieldLeaves({
  leaves,
  onRemove,
  disabled,
}: {
  leaves: Leaf[];
  onRemove: (leaf: Leaf) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  if (leaves.length === 0) return null;
  return (
    <SimpleGrid cols={1} spacing="xs" data-testid="upload-leaves">
      {leaves.map((leaf, i) => (
        <Card withBorder padding="sm" key={leaf.id} data-testid="upload-preview">
          <Group align="flex-start" wrap="nowrap">
            {/* A plain image (Mantine's Image is not in the upload screen's first download, decision 0121). */}
            <img
              src={leaf.preview}
              alt={t('analysis.upload.leafAlt', { n: i + 1 })}
              width={88}
              height={88}
              style={{
                objectFit: 'cover',
                borderRadius: 'var(--mantine-radius-sm)',
                display: 'block',
                flex: '0 0 auto',
              }}
            />
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
              <Text fw={500} size="sm">
                {t('analysis.upload.leafN', { n: i + 1, total: leaves.length })}
              </Text>
              <Text size="sm" truncate>
                {leaf.file.name}
              </Text>
              <Text size="xs" c="dimmed" data-testid="upload-sizes">
                {photoSizesLabel(t, leaf.file, leaf.prepared)}
              </Text>
            </Stack>
            <CloseButton
              aria-label={t('analysis.upload.removeLeaf', { n: i + 1 })}
              onClick={() => onRemove(leaf)}
              disabled={disabled}
            />
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
