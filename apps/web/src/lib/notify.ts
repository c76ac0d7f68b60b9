import { notifications } from '@mantine/notifications';

/** Notices have a title and a message (spec point 8); they stay 10 seconds with a close button. */
export function notifySuccess(message: string, title = 'Success') {
  notifications.show({ title, message, color: 'green', withCloseButton: true });
}
export function notifyError(message: string, title = 'Error') {
  notifications.show({ title, message, color: 'red', withCloseButton: true });
}
