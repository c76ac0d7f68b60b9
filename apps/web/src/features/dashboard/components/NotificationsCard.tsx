import { Card } from '@mantine/core';
import { NotificationList } from '../../../components/notifications/NotificationList.tsx';
import { NotificationsHeader } from '../../../components/notifications/NotificationsHeader.tsx';

export function NotificationsCard() {
  return (
    <Card withBorder padding="md" data-testid="notifications-card">
      <NotificationsHeader size="sm" countOnceLoaded countTestId="unread-count" />
      <NotificationList maxHeight={300} />
    </Card>
  );
}
