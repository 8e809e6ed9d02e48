import { useState } from 'react';
import type { User } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import type { DataOwner, Unsent } from '../../data/data-owner.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { LOGOUT_PATH, isOne, unsentText } from '../sign-out/sign-out.ts';
import { clearLocalData } from '../settings/clear-local-data.ts';
import { writeCachedUser } from './user-cache.ts';

/** "This device holds 2 changes by Ann Lee that were never sent." */
export function heldText(owner: DataOwner, unsent: Unsent): string {
  return `This device holds ${unsentText(unsent)} by ${owner.name} that ${isOne(unsent) ? 'was' : 'were'} never sent.`;
}

/**
 * [A12]: shown instead of the app when another user's changes are unsent on this device.
 * Nothing is sent under this session. The person may sign out (the changes stay for their
 * author) or discard them and start with this device cleared.
 */
export function HeldChangesScreen({
  user,
  owner,
  unsent,
  reload = () => window.location.reload(),
}: {
  user: User;
  owner: DataOwner;
  unsent: Unsent;
  reload?: () => void;
}) {
  const data = useRanchData();
  const [confirming, setConfirming] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const discard = async () => {
    setDiscarding(true);
    await clearLocalData(data, { keepAppShell: true });
    writeCachedUser(user);
    reload();
  };
  return (
    <main className="hero min-h-screen bg-base-200">
      <div className="hero-content max-w-lg flex-col text-center">
        <h1 className="text-3xl font-bold">Changes from another person</h1>
        <p role="alert" className="alert alert-warning">
          {heldText(owner, unsent)} They are kept until {owner.name} signs in again, or you can discard them.
        </p>
        <p>Nothing is sent to the server while you are signed in on this device.</p>
        <div className="flex flex-wrap justify-center gap-3">
          {/* [A6] A plain form POST: nothing is cleared, the held changes stay for their author. */}
          <form method="post" action={LOGOUT_PATH}>
            <button type="submit" className="btn btn-primary">
              Sign out
            </button>
          </form>
          <button type="button" className="btn btn-error btn-outline" disabled={discarding} onClick={() => setConfirming(true)}>
            Discard them
          </button>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Discard ${unsentText(unsent)} by ${owner.name}?`}
        confirmLabel="Discard"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void discard();
        }}
      >
        <p>They never reached the server and will be lost. This device is cleared and starts fresh for you.</p>
      </ConfirmDialog>
    </main>
  );
}
