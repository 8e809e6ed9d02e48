import { useSyncField } from '../../data/context.tsx';
import { useWaitingChanges, useWaitingPhotos } from '../../data/use-waiting.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { isOne, nothingUnsent, unsentText } from './sign-out.ts';

type SignOutDialogProps = {
  open: boolean;
  everywhere: boolean;
  busy: boolean;
  onStay: () => void;
  onSignOut: () => void;
};

/**
 * [A11]: asked only when something has not reached the server. The counts are live: when
 * the connection comes back and the server acknowledges everything, the dialog says so and
 * signing out loses nothing. Focus starts on 'Stay signed in'.
 */
export function SignOutDialog({ open, everywhere, busy, onStay, onSignOut }: SignOutDialogProps) {
  const saved = useSyncField('saved');
  const changes = useWaitingChanges();
  const photos = useWaitingPhotos();
  // A deletion alone moves no clock the records are counted by: still one change waiting.
  const unsent = { records: saved ? 0 : Math.max(1, changes), photos };
  const allSent = nothingUnsent(unsent);
  const signOutLabel = everywhere ? 'Sign out everywhere' : 'Sign out';
  return (
    <ConfirmDialog
      open={open}
      title={everywhere ? 'Sign out everywhere?' : 'Sign out?'}
      cancelLabel="Stay signed in"
      confirmLabel={allSent ? signOutLabel : `${signOutLabel} anyway`}
      destructive={!allSent}
      confirmDisabled={busy}
      onCancel={onStay}
      onConfirm={onSignOut}
    >
      {allSent ? (
        <p role="status">Everything is now saved on the server. Signing out clears the ranch from this device.</p>
      ) : (
        <div role="alert" className="alert alert-warning flex-col items-start">
          <p>
            {unsentText(unsent)} {isOne(unsent) ? 'has' : 'have'} not reached the server yet.
          </p>
          <p>
            Stay signed in to send {isOne(unsent) ? 'it' : 'them'} once there is a connection. Signing out anyway clears this device, and{' '}
            {isOne(unsent) ? 'it' : 'they'} will be lost.
          </p>
        </div>
      )}
    </ConfirmDialog>
  );
}
