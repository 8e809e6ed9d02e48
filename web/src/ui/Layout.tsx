import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { User } from '../../../shared/index.ts';
import { displayName, displayRole, initials } from '../lib/user-display.ts';
import { SyncBadge } from './SyncBadge.tsx';

const NAV_LINKS = [
  { to: '/', label: 'Dashboard' },
  { to: '/horses', label: 'Horses' },
] as const;

export const LOGOUT_PATH = '/api/logout';

/** Sidebar, header with the user, and the screen. A phone drawer comes in a later issue. */
export function Layout({ user, children }: { user: User; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-base-200 md:flex-row">
      <aside className="bg-base-100 md:w-60 md:shrink-0 md:border-r md:border-base-300">
        <div className="flex items-center gap-3 p-4">
          <img src="/icon-192.png" alt="" width={36} height={36} className="rounded-lg" />
          <div>
            <p className="text-lg font-bold leading-tight">Ranch</p>
            <p className="text-xs text-base-content/70">Ranch Management</p>
          </div>
        </div>
        <nav aria-label="Main">
          <ul className="menu menu-horizontal w-full md:menu-vertical">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} activeOptions={{ exact: true }} activeProps={{ className: 'menu-active' }}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="navbar gap-3 border-b border-base-300 bg-base-100 px-4">
          <div className="flex-1">
            <SyncBadge />
          </div>
          <div className="flex items-center gap-3">
            <div className="avatar avatar-placeholder">
              <div className="w-9 rounded-full bg-neutral text-neutral-content">
                {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" /> : <span>{initials(user)}</span>}
              </div>
            </div>
            <div className="min-w-0 text-right leading-tight">
              <p className="max-w-40 truncate text-sm font-medium">{displayName(user)}</p>
              <p className="text-xs text-base-content/70">{displayRole(user)}</p>
            </div>
            <a href={LOGOUT_PATH} className="btn btn-ghost btn-sm">
              Sign out
            </a>
          </div>
        </header>
        <main className="flex-1 p-4 md:p-6">{children}</main>
      </div>
    </div>
  );
}
