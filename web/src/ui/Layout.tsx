import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useRouterState } from '@tanstack/react-router';
import type { User } from '../../../shared/index.ts';
import { BottomNav } from './BottomNav.tsx';
import { pageTitle } from './nav-links.tsx';
import { NotificationsBell } from './NotificationsBell.tsx';
import { lockPageScroll } from './page-lock.ts';
import { Sidebar } from './Sidebar.tsx';
import { useSidebarCollapsed } from './sidebar-state.ts';
import { SyncBadge } from './SyncBadge.tsx';
import { useMadeWhenIdle } from './use-made-when-idle.ts';
import { useIsDesk } from './use-media-query.ts';
import { UserMenu } from './UserMenu.tsx';

export { LOGOUT_PATH } from './UserMenu.tsx';

/**
 * [G4], [G5], [G8]. A daisyUI drawer: on desks (md and up) the sidebar stays open and can be
 * collapsed to icons, and the screen's own heading names it; on phones the header is one
 * line (the brand, the screen's name, the sync status, the bell and the user menu), the main
 * screens are in the bottom navigation, and its More slides the sidebar in.
 */
export function Layout({ user, children }: { user: User; children: ReactNode }) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, toggleCollapsed] = useSidebarCollapsed();
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  // On a phone the open drawer covers the page, which stays put beneath it (page-lock.ts); on
  // a desk the sidebar is beside the page.
  const isDesk = useIsDesk();
  const overlay = drawerOpen && !isDesk;
  // A phone's closed drawer is out of sight; its links (~50 elements) are made once the start is
  // done, not in the start's first frame.
  const sidebarMade = useMadeWhenIdle(isDesk || drawerOpen);
  useEffect(() => (overlay ? lockPageScroll() : undefined), [overlay]);
  // Escape closes a phone's open drawer, as a tap beside it does; the focus, if it was in
  // the drawer, goes back to More, which opened it.
  const sidebar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!overlay) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      const focusWasInside = sidebar.current?.contains(document.activeElement) ?? false;
      setDrawerOpen(false);
      if (focusWasInside) document.querySelector<HTMLElement>('[aria-controls="nav-sidebar"]')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [overlay]);
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const title = pageTitle(pathname);

  return (
    <div className="drawer min-h-screen bg-base-200 md:drawer-open">
      <input
        id="nav-drawer"
        type="checkbox"
        className="drawer-toggle"
        checked={drawerOpen}
        onChange={(event) => setDrawerOpen(event.target.checked)}
        tabIndex={-1}
        aria-hidden="true"
      />
      <div className="drawer-content flex min-w-0 flex-col">
        <header className="navbar sticky top-0 z-30 flex-nowrap gap-1 border-b border-base-300 bg-base-100 px-2 sm:gap-2 sm:px-4">
          <img src="/icon-192.png" alt="" width={32} height={32} className="shrink-0 rounded-lg md:hidden" />
          <div className="flex min-w-0 flex-1 items-center gap-x-3">
            {/* Titles once: on desks the screen's heading names it, on phones this line does. */}
            {title && <p className="min-w-0 shrink truncate text-lg font-semibold md:hidden">{title}</p>}
            <SyncBadge />
          </div>
          <NotificationsBell userId={user.id} />
          <UserMenu user={user} />
        </header>
        {/* On phones the bottom navigation and the floating Add button keep the list's end clear of them. */}
        <main className="flex-1 p-4 pb-40 md:p-6">{children}</main>
        <BottomNav menuOpen={drawerOpen} onMore={() => setDrawerOpen(true)} />
      </div>
      <div className="drawer-side z-40" id="nav-sidebar" ref={sidebar}>
        {/* biome-ignore lint/a11y/noLabelWithoutControl: daisyUI's overlay, a tap beside the open drawer that closes it; its checkbox is hidden from assistive technology, so is this pointer's way out */}
        <label htmlFor="nav-drawer" aria-hidden="true" className="drawer-overlay" />
        {sidebarMade && <Sidebar role={user.role} collapsed={collapsed} onToggleCollapsed={toggleCollapsed} onNavigate={closeDrawer} />}
      </div>
    </div>
  );
}
