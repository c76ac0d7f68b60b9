// The toast package with its styles, loaded with the first notice (lib/notify.ts, App's container).
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';

export { Notifications, notifications } from '@mantine/notifications';
