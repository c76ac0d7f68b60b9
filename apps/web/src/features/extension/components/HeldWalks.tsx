import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useConfirmWalk, useHeldWalks } from '../../../api/extension.ts';

/**
 * The district's walks that count in no figure until the officer confirms them (decision 0105): a field far
 * from its farmer, or a share of plants with rust far from what the district's other farmers counted.
 * Shown only when there are some.
 */
export function HeldWalks({ code }: { code: string }) {
  const { t } = useTranslation();
  const held = useHeldWalks(code);
  const confirm = useConfirmWalk();
  const walks = held.data?.results ?? [];
  if (walks.length === 0) return null;
  const title = t('extension.held.title');
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb={4}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mb="xs">
        {t('extension.held.lead')}
      </Text>
      <Stack gap="xs">
        {walks.map((w) => (
          <Group key={w.id} justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={0}>
              <Text size="sm" fw={600}>
                {t('extension.held.walk', {
                  field: w.field_name,
                  crop: t(`extension.crops.${w.crop}`),
                  when: formatDateTime(w.walked_at),
                })}
              </Text>
              <Text size="sm">
                {t('extension.held.counts', { rust: w.plants_rust, looked: w.plants_looked })} ·{' '}
                {t(`extension.held.why.${w.held_for}`)}
              </Text>
            </Stack>
            <Button
              size="xs"
              variant="light"
              loading={confirm.isPending && confirm.variables === w.id}
              onClick={() =>
                confirm.mutate(w.id, {
                  onSuccess: () => notifySuccess(t('extension.held.confirmed')),
                  onError: (err) => notifyError(errorMessage(err)),
                })
              }
            >
              {t('extension.held.confirm')}
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
