import { Alert, Anchor, Box, Card, List, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { PhotoWithHeatmap } from '../../../components/AnalysisPhoto.tsx';
import { spotsOfResult } from '../../../components/RustSpots.tsx';
import { ResultCard } from './ResultCard.tsx';

/**
 * A diagnosis made on the phone: the same card as a server result, marked, beside the photo with the
 * rust-coloured spots circled as the server circles them (same function), and the cached resources.
 */
export function OfflineResult({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="offline-result">
      <Alert color="blue" icon={<IconDeviceMobile />} data-testid="offline-result-notice">
        {t('offline.result.notice')}
      </Alert>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        {result.image_url && (
          <Box style={{ justifySelf: 'center' }}>
            <PhotoWithHeatmap
              photoSrc={result.image_url}
              heatmapSrc={null}
              hasHeatmap={false}
              overlay={false}
              onOverlay={() => {}}
              size={220}
              alt={t('analysis.history.photoAlt')}
              showToggle={false}
              spots={spotsOfResult(result)}
            />
          </Box>
        )}
        <ResultCard result={result} actions={false} />
      </SimpleGrid>
      {result.educational_resources.length > 0 && (
        <Card withBorder padding="sm">
          <Text fw={600} mb={4}>
            {t('offline.result.resources')}
          </Text>
          <List size="sm" spacing={6}>
            {result.educational_resources.map((r) => (
              <List.Item key={r.url}>
                <Anchor href={r.url} target="_blank" rel="noreferrer">
                  {r.title}
                </Anchor>
                <Text size="sm" c="dimmed">
                  {r.description}
                </Text>
              </List.Item>
            ))}
          </List>
        </Card>
      )}
    </Stack>
  );
}
