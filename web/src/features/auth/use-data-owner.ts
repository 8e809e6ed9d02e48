import { useEffect, useRef, useState } from 'react';
import type { User } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { type DataOwner, readOwner, type Unsent } from '../../data/data-owner.ts';
import { displayName } from '../../lib/user-display.ts';
import { clearLocalData } from '../settings/clear-local-data.ts';
import { writeCachedUser } from './user-cache.ts';

export type OwnerGate =
  /** Reading whose data this is (an IndexedDB read), or clearing another user's for a fresh start. */
  | { kind: 'checking' }
  | { kind: 'open' }
  /** [A12]: another user's changes are unsent on this device; nothing is sent, the app is not shown. */
  | { kind: 'held'; owner: DataOwner; unsent: Unsent };

/**
 * [A12]: connects the data layer for `user`, unless the data on this device is another
 * user's. With that user's changes unsent, nothing is sent and the gate says `held`; with
 * nothing of theirs unsent, the device is cleared and the app starts fresh for `user`.
 * The data layer checks again before it opens the socket (ranch-data.ts `connect`).
 */
export function useDataOwnerGate(user: User, reload: () => void = () => window.location.reload()): OwnerGate {
  const data = useRanchData();
  const [gate, setGate] = useState<OwnerGate>({ kind: 'checking' });
  const name = displayName(user);
  // The user object is replaced when the profile is read again; only who it is matters.
  const latest = useRef({ user, reload });
  latest.current = { user, reload };
  const userId = user.id;
  useEffect(() => {
    let live = true;
    const owner: DataOwner = { userId, name };
    void (async () => {
      // The quick look, so the app shows at once for the data's own user.
      const stored = await readOwner(data.db).catch(() => null);
      if (live && (stored === null || stored.userId === owner.userId)) setGate({ kind: 'open' });
      const outcome = await data.connect(owner);
      if (!live) return;
      if (outcome.kind === 'syncing') return setGate({ kind: 'open' });
      if (outcome.kind === 'held') return setGate({ kind: 'held', owner: outcome.owner, unsent: outcome.unsent });
      setGate({ kind: 'checking' });
      await clearLocalData(data, { keepAppShell: true });
      writeCachedUser(latest.current.user);
      latest.current.reload();
    })();
    return () => {
      live = false;
    };
  }, [data, userId, name]);
  return gate;
}
