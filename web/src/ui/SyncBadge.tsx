import { useSyncStatus } from '../data/context.tsx';

/** Online/offline and whether every change made here is saved on the server. */
export function SyncBadge() {
  const { online, connection, saved, readOnly } = useSyncStatus();
  const connected = online && connection === 'connected';
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" aria-live="polite">
      <span className={`badge badge-sm whitespace-nowrap ${connected ? 'badge-success' : 'badge-warning'}`}>
        {connected ? 'Online' : online ? 'Connecting…' : 'Offline'}
      </span>
      <span className={`badge badge-sm badge-outline whitespace-nowrap ${saved ? '' : 'badge-warning'}`}>
        {saved ? 'All changes saved' : 'Changes waiting'}
      </span>
      {readOnly && <span className="badge badge-sm badge-ghost">Read only</span>}
    </div>
  );
}
