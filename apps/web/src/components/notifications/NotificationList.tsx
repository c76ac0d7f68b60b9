import { Anchor, Box, Button, Group, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { Link } from 'react-router';
import {
  IconBell,
  IconBrain,
  IconCalendarCheck,
  IconCalendarPlus,
  IconCalendarX,
  IconMessage2,
  IconMessageCheck,
  IconPhotoScan,
  IconUserCheck,
  IconUserX,
  type Icon,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { NotificationItem, NotificationType } from '@kutu/contract';
import { routes } from '../../config/routes.ts';
import { ListState } from '../ListState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMarkRead, useNotifications } from '../../api/notifications.ts';

const icons: Record<NotificationType, { icon: Icon; color: string }> = {
  booking_approved: { icon: IconCalendarCheck, color: 'green' },
  booking_rejected: { icon: IconCalendarX, color: 'red' },
  booking_requested: { icon: IconCalendarPlus, color: 'blue' },
  booking_cancelled: { icon: IconCalendarX, color: 'gray' },
  booking_reminder: { icon: IconBell, color: 'blue' },
  training_completed: { icon: IconBrain, color: 'violet' },
  image_analysis: { icon: IconPhotoScan, color: 'teal' },
  post_moderated: { icon: IconMessageCheck, color: 'orange' },
  comment_moderated: { icon: IconMessage2, color: 'orange' },
  expert_review: { icon: IconUserCheck, color: 'green' },
  moderation_pending: { icon: IconMessage2, color: 'blue' },
  expert_approved: { icon: IconUserCheck, color: 'green' },
  expert_refused: { icon: IconUserX, color: 'red' },
  outbreak_alert: { icon: IconBell, color: 'red' },
  follow_up_reminder: { icon: IconPhotoScan, color: 'blue' },
  community_answer: { icon: IconMessageCheck, color: 'green' },
  officer_approved: { icon: IconUserCheck, color: 'green' },
  officer_refused: { icon: IconUserX, color: 'red' },
  officer_weekly: { icon: IconBell, color: 'blue' },
  rust_advisory: { icon: IconBell, color: 'orange' },
  rust_bulletin: { icon: IconBell, color: 'blue' },
};

/**
 * Where a notification opens: an analysis's result (an expert's verdict with the note), the photo
 * screen marked as a follow-up of a diagnosis (the reminder to check the field again), the expert's
 * answer to the farmer's post, or nowhere.
 */
export function notificationTarget(n: Pick<NotificationItem, 'type' | 'data'>): string | null {
  const id = n.data.analysis_id;
  const { post_id: post, response_id: answer } = n.data;
  if (n.type === 'community_answer' && typeof post === 'number' && typeof answer === 'number') {
    return `${routes.communityPosts}?post=${post}&answer=${answer}`;
  }
  if (n.type === 'follow_up_reminder' && typeof n.data.follow_up_of === 'number') {
    return `${routes.imageAnalysis}?follow_up=${n.data.follow_up_of}`;
  }
  if ((n.type === 'expert_review' || n.type === 'image_analysis') && typeof id === 'number') {
    return `${routes.analysisHistory}?analysis=${id}`;
  }
  return null;
}

/** The caller's notifications: icon by type, message, local date, Mark as Read; scrolls past 300px. */
export function NotificationList({ maxHeight = 300 }: { maxHeight?: number }) {
  const { t } = useTranslation();
  const list = useNotifications();
  const markRead = useMarkRead();

  return (
    <ListState
      query={list.query}
      loading={
        <Stack gap="xs" role="status" aria-busy="true" aria-label={t('notifications.loading')}>
          <Skeleton h={48} />
          <Skeleton h={48} />
          <Skeleton h={48} />
        </Stack>
      }
      errorTitle={t('notifications.loadFailed')}
      empty={list.items.length === 0}
      emptyText={
        <Text c="dimmed" ta="center" py="md">
          {t('notifications.empty')}
        </Text>
      }
    >
      {/* The page's own scrollbar: Mantine's ScrollArea (5 KiB brotli) drew one like it on the dashboard. */}
      <Box mah={maxHeight} style={{ overflowY: 'auto' }}>
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {list.items.map((n) => {
            const { icon: TypeIcon, color } = icons[n.type] ?? { icon: IconBell, color: 'gray' };
            return (
              <Group
                key={n.id}
                component="li"
                wrap="nowrap"
                align="flex-start"
                gap="sm"
                data-testid="notification"
                data-read={n.read}
                style={{ opacity: n.read ? 0.55 : 1 }}
              >
                <ThemeIcon
                  color={color}
                  variant="light"
                  radius="xl"
                  role="img"
                  aria-label={t(`notifications.types.${n.type}`)}
                >
                  <TypeIcon size={18} />
                </ThemeIcon>
                <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                  {notificationTarget(n) ? (
                    <Anchor
                      component={Link}
                      to={notificationTarget(n)!}
                      size="sm"
                      fw={n.read ? 400 : 600}
                      style={{ wordBreak: 'break-word' }}
                      data-testid="notification-link"
                      onClick={() => {
                        if (!n.read) markRead.mutate(n.id);
                      }}
                    >
                      {n.message}
                    </Anchor>
                  ) : (
                    <Text size="sm" fw={n.read ? 400 : 600} style={{ wordBreak: 'break-word' }}>
                      {n.message}
                    </Text>
                  )}
                  {/* The button goes under the message: beside it, Kiswahili's and Luganda's longer label
                      left the message a strip of some 90 px on a phone, breaking its words. */}
                  <Group gap="xs" justify="space-between" wrap="wrap">
                    <Text size="xs" c="dimmed">
                      <time dateTime={n.date}>{formatDateTime(n.date)}</time>
                    </Text>
                    {!n.read && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        loading={markRead.isPending && markRead.variables === n.id}
                        onClick={() => markRead.mutate(n.id)}
                      >
                        {t('notifications.markRead')}
                      </Button>
                    )}
                  </Group>
                </Stack>
              </Group>
            );
          })}
          {list.query.hasNextPage && (
            <Button
              variant="subtle"
              size="xs"
              loading={list.query.isFetchingNextPage}
              onClick={() => void list.query.fetchNextPage()}
            >
              {t('notifications.more')}
            </Button>
          )}
        </Stack>
      </Box>
    </ListState>
  );
}
