import { Link, useRouterState, type LinkProps } from '@tanstack/react-router';
import type { Role } from '../../../shared/index.ts';
import { ChevronsLeftIcon, ChevronsRightIcon } from './icons.tsx';
import { navLinksFor } from './nav-links.tsx';

type SidebarProps = {
  role: Role | null | undefined;
  /** Desk only: icons without labels. The phone drawer always shows labels. */
  collapsed: boolean;
  onToggleCollapsed: () => void;
  onNavigate: () => void;
};

/** [G4]: brand, the links, and the Collapse toggle (desks). */
export function Sidebar({ role, collapsed, onToggleCollapsed, onNavigate }: SidebarProps) {
  const hide = collapsed ? 'md:sr-only' : '';
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const under = (path: string) => pathname === path || pathname.startsWith(`${path}/`);
  return (
    <aside className={`flex min-h-full flex-col border-r border-base-300 bg-base-100 ${collapsed ? 'w-64 md:w-18' : 'w-64'}`}>
      <div className={`flex items-center gap-3 p-4 ${collapsed ? 'md:justify-center md:px-2' : ''}`}>
        <img src="/icon-192.png" alt="" width={36} height={36} className="rounded-lg" />
        <div className={hide}>
          <p className="text-lg font-bold leading-tight">Ranch</p>
          <p className="text-xs text-base-content/70">Ranch Management</p>
        </div>
      </div>
      <nav aria-label="Main" className="flex-1">
        <ul className="menu w-full gap-1">
          {navLinksFor(role).map((link) => (
            <li key={link.to}>
              <Link
                to={link.to as LinkProps['to']}
                title={collapsed ? link.label : undefined}
                activeOptions={{ exact: link.to === '/' }}
                activeProps={{ className: 'menu-active', 'aria-current': 'page' }}
                className={`${collapsed ? 'md:justify-center' : ''} ${link.also?.some(under) ? 'menu-active' : ''}`}
                aria-current={link.also?.some(under) ? 'page' : undefined}
                onClick={onNavigate}
              >
                {link.icon}
                <span className={hide}>{link.label}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="hidden border-t border-base-300 p-2 md:block">
        <button
          type="button"
          className={`btn btn-ghost btn-sm w-full ${collapsed ? 'justify-center' : 'justify-start'}`}
          aria-pressed={collapsed}
          title="Collapse"
          onClick={onToggleCollapsed}
        >
          {collapsed ? <ChevronsRightIcon /> : <ChevronsLeftIcon />}
          <span className={hide}>Collapse</span>
        </button>
      </div>
    </aside>
  );
}
