import { lazy, Suspense, useState } from 'react';
import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNotifications, useNotificationStream, useStreamConnected } from '../../api/notifications.ts';

const BellPanel = lazy(() => import('./BellPanel.tsx'));

/** Top-bar bell: unread badge, the list in a popover; keeps the live stream open while signed in. */
export function NotificationsBell() {
  const { t } = useTranslation();
  useNotificationStream();
  const live = useStreamConnected();
  const { unreadCount } = useNotifications({ poll: !live });
  const [opened, setOpened] = useState<{ focused: boolean } | null>(null);
  const label = t('notifications.bellLabel', { count: unreadCount });
  const button = (
    <ActionIcon
      variant="subtle"
      size="lg"
      aria-label={label}
      title={label}
      aria-haspopup="dialog"
      aria-expanded={false}
      onClick={(event) => opened ?? setOpened({ focused: document.activeElement === event.currentTarget })}
    >
      <IconBell size={20} />
    </ActionIcon>
  );
  return (
    // The badge sits outside the popover's target so aria-expanded lands on the button, not on a div.
    <Indicator
      label={unreadCount > 99 ? '99+' : unreadCount}
      size={18}
      color="red"
      disabled={unreadCount === 0}
      offset={4}
      data-testid="unread-badge"
    >
      {opened ? (
        <Suspense fallback={button}>
          <BellPanel target={button} focused={opened.focused} />
        </Suspense>
      ) : (
        button
      )}
    </Indicator>
  );
}
