import { useCallback, useRef, useState } from 'react';
import { NoticeList } from '../features/sync-notices/NoticeList.tsx';
import { useNoticeBatches } from '../features/sync-notices/use-notices.ts';
import { BellIcon } from './icons.tsx';
import { useDismiss } from './use-dismiss.ts';

/**
 * [G5]: a bell with an unread dot; what it does was left open. Here it opens a small
 * panel listing the changes the server did not keep (docs/web.md "Changes not kept"); the
 * dot goes once it has been opened and comes back when another such notice arrives.
 */
export function NotificationsBell() {
  const [open, setOpen] = useState(false);
  const latest = useNoticeBatches().at(-1)?.id ?? 0;
  // The newest notice seen in the panel; null until first opened (the dot shows at start, as in the seed).
  const [seen, setSeen] = useState<number | null>(null);
  const unread = seen === null || latest > seen;
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
          setSeen(latest);
        }}
      >
        <span className="indicator">
          {unread && <span className="indicator-item status status-error" data-testid="unread-dot" />}
          <BellIcon className="size-5" />
        </span>
      </button>
      {open && (
        <div className="absolute right-0 z-50 mt-2 max-h-[70vh] w-80 max-w-[calc(100vw-1rem)] overflow-y-auto rounded-box border border-base-300 bg-base-100 p-4 text-sm shadow-lg">
          <NoticeList />
        </div>
      )}
    </div>
  );
}
