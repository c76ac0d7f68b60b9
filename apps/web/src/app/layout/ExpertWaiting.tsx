import { Alert, Anchor, Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { IconClockHour4, IconCircleX } from '@tabler/icons-react';
import type { ExpertVetting } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { routes } from '../../config/routes.ts';
import { formatDateTime } from '../../lib/format.ts';

/**
 * What an expert sees until an administrator approves the account (docs/decisions/0027): what it waits
 * for, or that it was refused and why. The server refuses every expert action meanwhile; this screen
 * replaces every account screen but the profile.
 */
export function ExpertWaiting({
  vetting,
  onCheck,
  checking,
}: {
  vetting: ExpertVetting;
  onCheck: () => void;
  checking: boolean;
}) {
  const { t } = useTranslation();
  if (vetting.status === 'refused') {
    return (
      <Stack gap="md" maw={640} data-testid="expert-refused">
        <Title order={1} size="h2">
          {t('vetting.waiting.refusedTitle')}
        </Title>
        <Alert color="red" icon={<IconCircleX size={20} />} title={t('vetting.waiting.refusedLead')}>
          <Stack gap="xs">
            {vetting.decided_at && (
              <Text size="sm">{t('vetting.waiting.decidedOn', { when: formatDateTime(vetting.decided_at) })}</Text>
            )}
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={600} size="sm">
                {t('vetting.waiting.reason')}:{' '}
              </Text>
              {vetting.reason}
            </Text>
          </Stack>
        </Alert>
        <Text size="sm">
          {t('vetting.waiting.refusedNext')}{' '}
          <Anchor component={Link} to={routes.contactUs}>
            {t('vetting.waiting.contact')}
          </Anchor>
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="md" maw={640} data-testid="expert-waiting">
      <Title order={1} size="h2">
        {t('vetting.waiting.title')}
      </Title>
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Text fw={600} size="sm">
            <IconClockHour4 size={18} style={{ verticalAlign: 'text-bottom', marginRight: 6 }} aria-hidden />
            {t('vetting.waiting.lead')}
          </Text>
          <Text size="sm">{t('vetting.waiting.why')}</Text>
          <List size="sm" spacing={4}>
            <List.Item>{t('vetting.waiting.canReview')}</List.Item>
            <List.Item>{t('vetting.waiting.canModerate')}</List.Item>
            <List.Item>{t('vetting.waiting.canConsult')}</List.Item>
            <List.Item>{t('vetting.waiting.canTrain')}</List.Item>
          </List>
          <Text size="sm">{t('vetting.waiting.told')}</Text>
        </Stack>
      </Card>
      <Text size="sm">
        <Anchor component={Link} to={routes.profile}>
          {t('vetting.waiting.profile')}
        </Anchor>
      </Text>
      <Button variant="light" onClick={onCheck} loading={checking} style={{ alignSelf: 'flex-start' }}>
        {t('vetting.waiting.check')}
      </Button>
    </Stack>
  );
}
