import { Alert, Anchor, Card, List, Stack, Text } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { ResultCard } from './ResultCard.tsx';

/** A diagnosis made on the phone: the same card as a server result, marked, with the cached resources. */
export function OfflineResult({ result }: { result: AnalysisResult }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="offline-result">
      <Alert color="blue" icon={<IconDeviceMobile />} data-testid="offline-result-notice">
        {t('offline.result.notice')}
      </Alert>
      <ResultCard result={result} actions={false} />
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
