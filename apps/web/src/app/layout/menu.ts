import {
  IconCalendarEvent,
  IconDeviceMobile,
  IconUserCheck,
  IconLayoutDashboard,
  IconMap2,
  IconMessages,
  IconPhotoScan,
  IconPlant2,
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
  /** Left out: every role. */
  roles?: Role[];
  to?: string;
  children?: MenuLink[];
}

/** The side menu of spec point 2; items are filtered by the signed-in role. */
export const menu: MenuEntry[] = [
  { labelKey: 'menu.dashboard', icon: IconLayoutDashboard, to: routes.dashboard, roles: ['farmer', 'expert'] },
  // A farmer's fields and their scouting walks (docs/decisions/0078).
  { labelKey: 'menu.fields', icon: IconPlant2, to: routes.fields, roles: ['farmer'] },
  {
    labelKey: 'menu.administration',
    icon: IconUserCheck,
    to: routes.admin,
    roles: ['admin'],
  },
  { labelKey: 'menu.extensionWeek', icon: IconMap2, to: routes.extensionWeek, roles: ['officer'] },
  // Next week's risk and the advisories to hold (decision 0128): the server lets national officers hold. The
  // fields' icon (a farmer's, never beside this one): a new icon would ride in every farmer's first files.
  { labelKey: 'menu.forecastDesk', icon: IconPlant2, to: routes.forecastDesk, roles: ['admin', 'officer'] },
  // Outbreak watch (decision 0035): farmers, experts and extension officers (their districts among the rest).
  { labelKey: 'menu.outbreakMap', icon: IconMap2, to: routes.outbreakMap, roles: ['farmer', 'expert', 'officer'] },
  {
    labelKey: 'menu.imageAnalysis',
    icon: IconPhotoScan,
    children: [
      { labelKey: 'menu.uploadImage', to: routes.imageAnalysis, roles: ['farmer'] },
      { labelKey: 'menu.analysisHistory', to: routes.analysisHistory, roles: ['farmer'] },
      { labelKey: 'menu.educationResources', to: routes.educationResources, roles: ['farmer', 'expert'] },
      { labelKey: 'menu.reviewQueue', to: routes.reviewQueue, roles: ['expert'] },
      { labelKey: 'menu.clinic', to: routes.clinic, roles: ['expert'] },
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
  {
    labelKey: 'menu.basicPhones',
    icon: IconDeviceMobile,
    children: [
      { labelKey: 'menu.callbacks', to: routes.callbacks, roles: ['expert'] },
      { labelKey: 'menu.ussdSimulator', to: routes.ussdSimulator, roles: ['admin', 'expert'] },
      { labelKey: 'menu.voiceClips', to: routes.voiceClips, roles: ['admin', 'expert'] },
    ],
  },
  { labelKey: 'menu.profile', icon: IconUser, to: routes.profile },
];

/** `waiting`: an expert an administrator has not approved sees only the profile (docs/decisions/0027). */
export function menuForRole(role: Role | null, waiting = false): MenuEntry[] {
  const allowed = (roles?: Role[]) => !roles || (role !== null && roles.includes(role));
  return menu
    .filter((entry) => allowed(entry.roles) && (!waiting || entry.to === routes.profile))
    .map((entry) => ({
      ...entry,
      children: entry.children?.filter((c) => !c.roles || (role && c.roles.includes(role))),
    }))
    .filter((entry) => !entry.children || entry.children.length > 0);
}
