import { useCallback, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { MoreIcon } from './icons.tsx';
import { useMenuFocus } from './use-menu-focus.ts';

export type MenuAction = { label: string; icon?: ReactNode; destructive?: boolean; run: () => void };

/**
 * [B16] A compact row's "⋯": its actions in a sheet along the bottom of the screen, in the
 * thumb's reach, the row's name on top and a destructive action in quiet red text (it only
 * asks: docs/design.md "Buttons"). The WAI-ARIA menu button pattern: the first item has the
 * focus, arrows move, Escape or a tap beside the sheet closes it and the focus goes back to
 * "⋯".
 */
export function RowMenu({ title, titleId, actions }: { title: ReactNode; titleId?: string; actions: readonly MenuAction[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const ownId = useId();
  const menuId = useId();
  const ownTitleId = useId();
  const named = titleId ?? ownTitleId;
  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);
  const moveFocus = useMenuFocus(menu, open);
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      close();
      return;
    }
    moveFocus(event);
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-square shrink-0"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-labelledby={`${ownId} ${named}`}
        onClick={() => setOpen((was) => !was)}
      >
        <span id={ownId} className="sr-only">
          Actions for
        </span>
        {!titleId && (
          <span id={ownTitleId} className="sr-only">
            {title}
          </span>
        )}
        <MoreIcon className="size-5" />
      </button>
      {open && (
        <div className="fixed inset-0 z-50 flex items-end">
          {/* A tap beside the sheet closes it; the keyboard has Escape. */}
          <button type="button" tabIndex={-1} aria-label="Close" className="absolute inset-0 bg-neutral/40" onClick={close} />
          <ul
            ref={menu}
            id={menuId}
            // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA menu button pattern: a list of menuitems
            role="menu"
            aria-labelledby={named}
            className="menu relative w-full gap-1 rounded-t-box bg-base-100 p-2 pb-[calc(env(safe-area-inset-bottom)+0.5rem)] shadow-lg"
            onKeyDown={onKey}
          >
            <li role="none" className="menu-title truncate text-base text-base-content">
              {title}
            </li>
            {actions.map((action) => (
              <li role="none" key={action.label}>
                <button
                  type="button"
                  role="menuitem"
                  className={`text-base ${action.destructive ? 'text-error' : ''}`}
                  onClick={() => {
                    close();
                    action.run();
                  }}
                >
                  {action.icon && <span aria-hidden="true">{action.icon}</span>}
                  {action.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}
