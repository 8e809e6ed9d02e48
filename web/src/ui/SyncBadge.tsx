import { useEffect, useState } from 'react';
import { useSyncStatus } from '../data/context.tsx';
import { useWaitingChanges, useWaitingEntries, useWaitingPhotos } from '../data/use-waiting.ts';
import { TimeAgo } from './TimeAgo.tsx';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** Re-renders every `ms` so relative times stay true. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * The header's sync status ([O5]): online or not, "All changes
 * saved" or how many records wait for the server's acknowledgement, photos still in the
 * outbox, and when the server last answered. One polite live region, so a screen reader
 * hears the change when signal comes back, not every tick of the clock.
 */
export function SyncBadge() {
  const { online, connection, saved: documentSaved, readOnly, lastSyncedAt } = useSyncStatus();
  // A sale, payment or correction waits as a ledger entry, not as a change of the document.
  const entries = useWaitingEntries();
  const saved = documentSaved && entries === 0;
  const changes = useWaitingChanges() + entries;
  const photos = useWaitingPhotos();
  const now = useNow(30_000);
  const connected = online && connection === 'connected';
  const changesText = saved ? 'All changes saved' : changes > 0 ? `${plural(changes, 'change', 'changes')} waiting` : 'Changes waiting';
  return (
    // [G8] On phones one line: what waits shows, "All changes saved" and the time are for screen readers only.
    // biome-ignore lint/a11y/useSemanticElements: a group of status badges, not form controls; a fieldset's default min-width would change the header's wrapping
    <div className="flex min-w-0 shrink-0 items-center gap-2 text-xs md:flex-wrap" role="group" aria-label="Sync status">
      <div className="contents" aria-live="polite">
        {/* A dot and a word, not a coloured badge: the header stays quiet until something waits (docs/design.md "Status colours"). */}
        <span className="inline-flex items-center gap-1.5 whitespace-nowrap font-medium">
          <span className={`status ${connected ? 'status-success' : 'status-warning'}`} aria-hidden="true" />
          <span>{connected ? 'Online' : online ? 'Connecting…' : 'Offline'}</span>
        </span>
        <span className={`whitespace-nowrap ${saved ? 'text-base-content/70 max-md:sr-only' : 'badge badge-sm badge-warning'}`}>
          {changesText}
        </span>
        {photos > 0 && <span className="badge badge-sm badge-warning whitespace-nowrap">{plural(photos, 'photo', 'photos')} waiting</span>}
        {readOnly && <span className="badge badge-sm badge-ghost">Read only</span>}
      </div>
      {lastSyncedAt !== null && (
        <TimeAgo at={lastSyncedAt} now={now} prefix="Synced " className="whitespace-nowrap text-base-content/60 max-md:sr-only" />
      )}
    </div>
  );
}
