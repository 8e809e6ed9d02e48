import { useCallback, useId, useRef, useState } from 'react';
import { Link, type LinkProps } from '@tanstack/react-router';
import type { User } from '../../../shared/index.ts';
import { LOGOUT_PATH } from '../features/sign-out/sign-out.ts';
import { useSignOut } from '../features/sign-out/use-sign-out.tsx';
import { displayName, displayRole, initials } from '../lib/user-display.ts';
import { useDismiss } from './use-dismiss.ts';
import { useMenuFocus } from './use-menu-focus.ts';

export { LOGOUT_PATH };
// Plain strings: these routes belong to screens added alongside this one.
const PROFILE_PATH: string = '/profile';
const SETTINGS_PATH: string = '/settings';

/** [G6]: name (or e-mail, or 'User'), role (Staff by default), initials avatar, and the menu. */
export function UserMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = useCallback(() => setOpen(false), []);
  const { signOut, dialog: signOutDialog } = useSignOut();
  useDismiss(ref, open, close);
  const menuRef = useRef<HTMLUListElement>(null);
  // The WAI-ARIA menu button pattern.
  const onMenuKey = useMenuFocus(menuRef, open);
  const name = displayName(user);
  const role = displayRole(user);

  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        className="btn btn-ghost h-auto gap-2 px-1 py-1 sm:px-2"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`User menu: ${name}, ${role}`}
        onClick={() => setOpen((was) => !was)}
      >
        <span className="avatar avatar-placeholder">
          <span className="flex size-9 items-center justify-center overflow-hidden rounded-full bg-neutral text-neutral-content">
            {/* The initials are drawn by CSS, a picture like the photo: the button's visible text is the name and role its label holds. */}
            {user.profileImageUrl ? (
              <img src={user.profileImageUrl} alt="" />
            ) : (
              <span data-initials={initials(user)} className="after:content-[attr(data-initials)]" />
            )}
          </span>
        </span>
        <span className="hidden min-w-0 text-left leading-tight sm:block">
          <span className="block max-w-40 truncate text-sm font-medium">{name}</span>{' '}
          <span className="block text-xs font-normal text-base-content/70">{role}</span>
        </span>
      </button>
      {open && (
        <ul
          ref={menuRef}
          id={menuId}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA menu button pattern: a list of menuitems
          role="menu"
          onKeyDown={onMenuKey}
          aria-label="My Account"
          className="menu absolute right-0 z-50 mt-2 w-56 rounded-box border border-base-300 bg-base-100 p-2 shadow-lg"
        >
          <li role="none" className="menu-title">
            <span>My Account</span>
            <span className="block truncate text-xs font-normal sm:hidden">
              {name} · {role}
            </span>
          </li>
          <li role="none">
            <Link role="menuitem" to={PROFILE_PATH as LinkProps['to']} onClick={close}>
              Profile
            </Link>
          </li>
          <li role="none">
            <Link role="menuitem" to={SETTINGS_PATH as LinkProps['to']} onClick={close}>
              Settings
            </Link>
          </li>
          <li role="none">
            {/* [A11]: the link is the fallback (it asks, then POSTs); the app signs out and clears the device itself. */}
            <a
              role="menuitem"
              href={LOGOUT_PATH}
              onClick={(event) => {
                event.preventDefault();
                close();
                signOut();
              }}
            >
              Sign out
            </a>
          </li>
          <li role="none">
            {/* [U14]: ends every session of the user, this one included, then clears this device like Sign out. */}
            <button
              type="button"
              role="menuitem"
              onClick={() => {
                close();
                signOut({ everywhere: true });
              }}
            >
              Sign out everywhere
            </button>
          </li>
        </ul>
      )}
      {signOutDialog}
    </div>
  );
}
