import { Badge, Button, Card, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMarkAllRead, useNotifications } from '../../notifications/api/notifications.ts';
import { NotificationList } from '../../notifications/components/NotificationList.tsx';

export function NotificationsCard() {
  const { t } = useTranslation();
  const { unreadCount, isSuccess } = useNotifications();
  const markAll = useMarkAllRead();
  return (
    <Card withBorder padding="md" data-testid="notifications-card">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Text fw={600}>{t('notifications.title')}</Text>
          {isSuccess && (
            <Badge variant="light" color={unreadCount ? 'red' : 'gray'} data-testid="unread-count">
              {t('notifications.unread', { count: unreadCount })}
            </Badge>
          )}
        </Group>
        <Button
          size="compact-sm"
          variant="subtle"
          disabled={unreadCount === 0}
          loading={markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          {t('notifications.markAllRead')}
        </Button>
      </Group>
      <NotificationList maxHeight={300} />
    </Card>
  );
}
