import {
  IconCalendarEvent,
  IconLayoutDashboard,
  IconMap2,
  IconMessages,
  IconPhotoScan,
  IconUser,
  type Icon,
} from '@tabler/icons-react';
import type { Role } from '@kutu/contract';
import { routes } from '../../config/routes.ts';

export interface MenuLink {
  labelKey: string;
  to: string;
  roles?: Role[];
  /** A count shown beside the link (and its group). */
  badge?: 'pendingModeration';
}
export interface MenuEntry {
  labelKey: string;
  icon: Icon;
  to?: string;
  children?: MenuLink[];
}

/** The side menu of spec point 2; items are filtered by the signed-in role. */
export const menu: MenuEntry[] = [
  { labelKey: 'menu.dashboard', icon: IconLayoutDashboard, to: routes.dashboard },
  // Outbreak watch (issue 36): farmers and experts.
  { labelKey: 'menu.outbreakMap', icon: IconMap2, to: routes.outbreakMap },
  {
    labelKey: 'menu.imageAnalysis',
    icon: IconPhotoScan,
    children: [
      { labelKey: 'menu.uploadImage', to: routes.imageAnalysis, roles: ['farmer'] },
      { labelKey: 'menu.analysisHistory', to: routes.analysisHistory, roles: ['farmer'] },
      { labelKey: 'menu.educationResources', to: routes.educationResources },
      { labelKey: 'menu.reviewQueue', to: routes.reviewQueue, roles: ['expert'] },
      { labelKey: 'menu.modelTraining', to: routes.modelTraining, roles: ['expert'] },
    ],
  },
  {
    labelKey: 'menu.communityPosts',
    icon: IconMessages,
    children: [
      { labelKey: 'menu.makePost', to: routes.communityPosts, roles: ['farmer'] },
      { labelKey: 'menu.allPosts', to: routes.allPosts, roles: ['expert'], badge: 'pendingModeration' },
    ],
  },
  {
    labelKey: 'menu.expertSlots',
    icon: IconCalendarEvent,
    children: [
      { labelKey: 'menu.createSlot', to: routes.availabilitySlots, roles: ['expert'] },
      { labelKey: 'menu.bookings', to: routes.bookings, roles: ['expert'] },
      { labelKey: 'menu.slots', to: routes.slots, roles: ['farmer'] },
      { labelKey: 'menu.myBookings', to: routes.myBookings, roles: ['farmer'] },
    ],
  },
  { labelKey: 'menu.profile', icon: IconUser, to: routes.profile },
];

export function menuForRole(role: Role | null): MenuEntry[] {
  return menu
    .map((entry) => ({
      ...entry,
      children: entry.children?.filter((c) => !c.roles || (role && c.roles.includes(role))),
    }))
    .filter((entry) => !entry.children || entry.children.length > 0);
}
