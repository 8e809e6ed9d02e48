import type { ReactNode } from 'react';
import type { Role } from '../../../shared/index.ts';
import { CogIcon, DollarIcon, HomeIcon, HorseIcon, ShieldIcon, TruckIcon, UsersIcon } from './icons.tsx';

export type NavLink = {
  to: string;
  label: string;
  title: string;
  icon: ReactNode;
  roles?: readonly Role[];
  /** Other paths (and what is under them) where the link is the page's: Sales on /payments. */
  also?: readonly string[];
};

/** [G4]: the sidebar links; Users only for role Admin. `title` heads the page. */
export const NAV_LINKS: readonly NavLink[] = [
  { to: '/', label: 'Dashboard', title: 'Dashboard', icon: <HomeIcon className="size-5" /> },
  { to: '/horses', label: 'Horses', title: 'Horse Inventory', icon: <HorseIcon className="size-5" /> },
  { to: '/owners', label: 'Suppliers', title: 'Suppliers', icon: <TruckIcon className="size-5" /> },
  { to: '/buyers', label: 'Buyers', title: 'Buyers', icon: <UsersIcon className="size-5" /> },
  { to: '/sales', label: 'Sales', title: 'Sales & Payments', icon: <DollarIcon className="size-5" />, also: ['/payments'] },
  { to: '/admin', label: 'Admin', title: 'Administration', icon: <CogIcon className="size-5" /> },
  { to: '/users', label: 'Users', title: 'User Management', icon: <ShieldIcon className="size-5" />, roles: ['Admin'] },
];

/** [G8] The main screens, in a phone's bottom navigation; More opens the menu with the rest. */
export const BOTTOM_NAV_PATHS: readonly string[] = ['/', '/horses', '/sales', '/buyers'];

const OTHER_TITLES: Record<string, string> = {
  '/profile': 'Profile',
  '/settings': 'Settings',
  '/activity': 'Activity',
  // The Sales screen's Payments tab has an address of its own ([B10]).
  '/payments': 'Sales & Payments',
};

/** [B10] The lists whose records have links of their own. */
const RECORD_LISTS = new Set(['/horses', '/owners', '/buyers', '/sales', '/payments']);

export function navLinksFor(role: Role | null | undefined): NavLink[] {
  return NAV_LINKS.filter((link) => !link.roles || (role != null && link.roles.includes(role)));
}

/** The header's title for a path; '' for paths the router does not know. */
export function pageTitle(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  // [B10] A record's link (/horses/<id>) is headed by its list's title.
  const list = path.replace(/^(\/[^/]+)\/[^/]+$/, '$1');
  const title = (to: string) => NAV_LINKS.find((link) => link.to === to)?.title;
  return title(path) ?? (RECORD_LISTS.has(list) ? (title(list) ?? OTHER_TITLES[list]) : undefined) ?? OTHER_TITLES[path] ?? '';
}
