import type { RanchDb } from '../db.ts';
import type { SaveTracker } from '../save-tracker.ts';
import type { SyncConnection } from '../sync.ts';
import { startLedgerPull } from './pull.ts';
import { startLedgerPush, type LedgerPush, type LedgerPushOptions } from './push.ts';

/**
 * The ledger beside the sync socket (docs/sync-rules.md §7): pulls from the cursor
 * (pull.ts) and pushes what this device recorded (push.ts) once the server has this
 * device's document changes (`tracker`), again whenever the socket (re)connects and
 * whenever those changes are all acknowledged. Returns kick (push now) and stop.
 */
export function startLedgerSync(
  connection: SyncConnection,
  db: RanchDb,
  tracker: Pick<SaveTracker, 'isSaved' | 'onChange'>,
  options: Omit<LedgerPushOptions, 'mayPush'> & { isOnline(): boolean },
): LedgerPush {
  const stopPull = startLedgerPull(connection, db, options);
  const push = startLedgerPush(db, { ...options, mayPush: () => options.isOnline() && tracker.isSaved() });
  let saved = tracker.isSaved();
  const stopSaved = tracker.onChange((now) => {
    if (now && !saved) push.resume();
    saved = now;
  });
  const onStatus = ({ status }: { status: string }) => {
    if (status === 'connected') push.kick();
  };
  connection.provider.on('status', onStatus);
  push.kick();
  return {
    kick: () => push.kick(),
    resume: () => push.resume(),
    stop() {
      stopPull();
      stopSaved();
      connection.provider.off('status', onStatus);
      push.stop();
    },
  };
}
