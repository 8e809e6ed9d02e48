import { Link, useRouterState, type LinkProps } from '@tanstack/react-router';
import { MenuIcon } from './icons.tsx';
import { BOTTOM_NAV_PATHS, NAV_LINKS } from './nav-links.tsx';

const SHOWN = NAV_LINKS.filter((link) => BOTTOM_NAV_PATHS.includes(link.to));

/**
 * [G8] A phone's bottom navigation: the main screens a thumb reaches without the menu, and
 * More, which opens the menu with every screen. The current screen's item is marked (a bar
 * under it, and `aria-current`); on another screen More is marked.
 */
export function BottomNav({ menuOpen, onMore }: { menuOpen: boolean; onMore: () => void }) {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // The Sales screen's Payments tab has an address of its own (/payments).
  const at = pathname.startsWith('/payments') ? '/sales' : pathname;
  const here = (to: string) => (to === '/' ? at === '/' : at === to || at.startsWith(`${to}/`));
  const elsewhere = !SHOWN.some((link) => here(link.to));
  return (
    <nav aria-label="Quick navigation" className="dock z-30 border-t border-base-300 md:hidden">
      {SHOWN.map((link) => (
        <Link
          key={link.to}
          to={link.to as LinkProps['to']}
          aria-current={here(link.to) ? 'page' : undefined}
          className={here(link.to) ? 'text-primary' : ''}
        >
          {link.icon}
          <span className="dock-label">{link.label}</span>
        </Link>
      ))}
      <button
        type="button"
        aria-expanded={menuOpen}
        aria-controls="nav-sidebar"
        className={elsewhere ? 'dock-active text-primary' : ''}
        onClick={onMore}
      >
        <MenuIcon className="size-5" />
        <span className="dock-label">More</span>
      </button>
    </nav>
  );
}
