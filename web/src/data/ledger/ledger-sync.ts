import type { RanchDb } from '../db.ts';
import type { SyncConnection } from '../sync.ts';
import { startLedgerPull } from './pull.ts';
import { startLedgerPush, type LedgerPush, type LedgerPushOptions } from './push.ts';

/**
 * The ledger beside the sync socket (docs/sync-rules.md §7): pulls from the cursor
 * (pull.ts) and pushes what this device recorded (push.ts), both again whenever the socket
 * (re)connects, since the server is back then. Returns kick (push now) and stop.
 */
export function startLedgerSync(connection: SyncConnection, db: RanchDb, options: LedgerPushOptions): LedgerPush {
  const stopPull = startLedgerPull(connection, db, options);
  const push = startLedgerPush(db, options);
  const onStatus = ({ status }: { status: string }) => {
    if (status === 'connected') push.kick();
  };
  connection.provider.on('status', onStatus);
  push.kick();
  return {
    kick: () => push.kick(),
    stop() {
      stopPull();
      connection.provider.off('status', onStatus);
      push.stop();
    },
  };
}
