import { Button, Card, Group, Text } from '@mantine/core';
import {
  IconBrain,
  IconCalendarEvent,
  IconCalendarPlus,
  IconClipboardList,
  IconList,
  IconMessagePlus,
  IconMessages,
  IconUpload,
  type Icon,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Role } from '@kutu/contract';
import { routes } from '../../../config/routes.ts';

interface QuickLink {
  labelKey: string;
  to: string;
  icon: Icon;
}

/** Shortcuts to the real screens of each role. */
export const quickLinks: Record<Role, QuickLink[]> = {
  farmer: [
    { labelKey: 'dashboard.links.uploadImage', to: routes.imageAnalysis, icon: IconUpload },
    { labelKey: 'dashboard.links.bookSlot', to: routes.slots, icon: IconCalendarEvent },
    { labelKey: 'dashboard.links.makePost', to: routes.communityPosts, icon: IconMessagePlus },
    { labelKey: 'dashboard.links.viewPosts', to: routes.communityPosts, icon: IconMessages },
  ],
  expert: [
    { labelKey: 'dashboard.links.modelTraining', to: routes.modelTraining, icon: IconBrain },
    { labelKey: 'dashboard.links.allPosts', to: routes.allPosts, icon: IconList },
    { labelKey: 'dashboard.links.createSlot', to: routes.availabilitySlots, icon: IconCalendarPlus },
    { labelKey: 'dashboard.links.bookings', to: routes.bookings, icon: IconClipboardList },
  ],
  admin: [],
  officer: [],
};

export function QuickLinks({ role }: { role: Role }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md">
      <Text fw={600} mb="sm">
        {t('dashboard.quickLinks')}
      </Text>
      <Group gap="sm">
        {quickLinks[role].map(({ labelKey, to, icon: LinkIcon }) => (
          <Button key={labelKey} component={Link} to={to} variant="light" leftSection={<LinkIcon size={18} />}>
            {t(labelKey)}
          </Button>
        ))}
      </Group>
    </Card>
  );
}
