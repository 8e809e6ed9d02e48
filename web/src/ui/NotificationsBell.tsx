import { useCallback, useRef, useState } from 'react';
import { BellIcon } from './icons.tsx';
import { useDismiss } from './use-dismiss.ts';

/**
 * SPEC §2: a bell with an unread dot; its behaviour is not shown. Here it opens a small
 * panel and the dot goes once it has been opened (there is no notification feed yet).
 */
export function NotificationsBell() {
  const [open, setOpen] = useState(false);
  const [unread, setUnread] = useState(true);
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);

  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        className="btn btn-ghost btn-circle"
        aria-label={unread ? 'Notifications, unread' : 'Notifications'}
        aria-expanded={open}
        onClick={() => {
          setOpen((was) => !was);
          setUnread(false);
        }}
      >
        <span className="indicator">
          {unread && <span className="indicator-item status status-error" data-testid="unread-dot" />}
          <BellIcon className="size-5" />
        </span>
      </button>
      {open && (
        <div className="absolute right-0 z-50 mt-2 w-64 rounded-box border border-base-300 bg-base-100 p-4 text-sm shadow-lg">
          No new notifications
        </div>
      )}
    </div>
  );
}
