import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { DueList } from '../features/care/DueList.tsx';
import { markDueSeen } from '../features/care/due-marks.ts';
import { useBellDue, type DueRow } from '../features/care/use-due.ts';
import { useRanchData } from '../data/context.tsx';
import type { ConflictRow } from '../data/db.ts';
import { NoticeList } from '../features/sync-notices/NoticeList.tsx';
import { useNoticeBatches } from '../features/sync-notices/use-notices.ts';
import { DueDetails } from '../features/care/due-details-lazy.ts';
import { BellConflicts } from '../features/conflicts/BellConflicts.tsx';
import { useOpenConflictList } from '../features/conflicts/open-conflicts.ts';
import { BellIcon } from './icons.tsx';
import { useDismiss } from './use-dismiss.ts';

/**
 * [G5] [K4]: a bell with an unread dot. Its panel lists what is due — care overdue or due
 * within 14 days, installments past due, each opening the horse or the sale — and the
 * changes the server did not keep (docs/web.md "Changes not kept"). [G5] The dot means
 * something new: an item due that this user has not had listed in the panel on this device,
 * or a notice that arrived since the panel was last opened; nothing new, no dot. [T8] It also
 * lists the open conflicts, each linking to its record, until answered; one not yet listed
 * in the panel since the app started lights the dot.
 */
const NO_CONFLICTS: ConflictRow[] = [];

export function NotificationsBell({ userId }: { userId: string }) {
  const [open, setOpen] = useState(false);
  const latest = useNoticeBatches().at(-1)?.id ?? 0;
  // The newest notice seen in the panel. Notices live as long as the page, so every one
  // that arrived since it opened is new until the panel shows it.
  const [seen, setSeen] = useState(0);
  const { db } = useRanchData();
  // [K4] [K7] The first 50 rows, and whether something new is due, compared where the list is
  // read; newly due items are announced by the read itself (due-notifications.ts).
  const due = useBellDue(userId);
  const marks = due?.marks;
  // What this panel marked seen: an answer read before the mark was stored still says "new".
  const [seenHashes, setSeenHashes] = useState<string | null>(null);
  const [opened, setOpened] = useState<DueRow | null>(null);
  const newDue = marks?.newDue === true && marks.hashes !== seenHashes;
  const conflicts = useOpenConflictList()?.all ?? NO_CONFLICTS;
  // The conflicts listed in the panel: one arriving since lights the dot.
  const [seenConflicts, setSeenConflicts] = useState<ReadonlySet<string>>(() => new Set());
  const newConflict = conflicts.some((conflict) => !seenConflicts.has(conflict.id));
  const unread = latest > seen || newDue || newConflict;
  const ref = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);

  // What is listed while the panel is open has been seen (also what arrives while it is open).
  useEffect(() => {
    if (!open || !marks) return;
    setSeenHashes(marks.hashes);
    // Refused (storage full): the dot comes back at the next read, nothing worse.
    markDueSeen(db, userId, marks.hashes).catch(() => {});
  }, [open, marks, userId, db]);
  useEffect(() => {
    if (open) setSeenConflicts(new Set(conflicts.map((conflict) => conflict.id)));
  }, [open, conflicts]);

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
        <div className="absolute right-0 z-50 mt-2 max-h-[70vh] w-80 max-w-[calc(100vw-1rem)] space-y-3 overflow-y-auto rounded-box border border-base-300 bg-base-100 p-4 text-sm shadow-lg">
          {due && due.total > 0 && (
            <section aria-label="Due">
              <h2 className="mb-1 font-semibold">Due</h2>
              <DueList
                rows={due.rows}
                total={due.total}
                limit={50}
                onOpen={(row) => {
                  setOpen(false);
                  setOpened(row);
                }}
              />
            </section>
          )}
          {conflicts.length > 0 && <BellConflicts conflicts={conflicts} onOpen={close} />}
          {(latest > 0 || ((!due || due.total === 0) && conflicts.length === 0)) && <NoticeList />}
        </div>
      )}
      {opened && (
        <Suspense fallback={null}>
          <DueDetails due={opened} onClose={() => setOpened(null)} />
        </Suspense>
      )}
    </div>
  );
}
