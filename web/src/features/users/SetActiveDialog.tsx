import { useState } from 'react';
import type { User } from '../../../../shared/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { listName } from './filter-users.ts';

type Props = {
  /** The account to deactivate (when active) or reactivate; null when closed. */
  user: User | null;
  onCancel: () => void;
  /** Resolves when the request is over (successful or not). */
  onConfirm: (user: User, isActive: boolean) => Promise<void>;
};

/** [U11] Asks before an account is deactivated (signed out everywhere at once) or reactivated. */
export function SetActiveDialog({ user, onCancel, onConfirm }: Props) {
  const [pending, setPending] = useState(false);
  const deactivate = user?.isActive !== false;
  const name = user ? listName(user) : '';
  return (
    <ConfirmDialog
      open={user !== null}
      title={deactivate ? 'Deactivate User' : 'Reactivate User'}
      confirmLabel={pending ? (deactivate ? 'Deactivating...' : 'Reactivating...') : deactivate ? 'Deactivate' : 'Reactivate'}
      destructive={deactivate}
      confirmDisabled={pending}
      onCancel={onCancel}
      onConfirm={() => {
        if (!user) return;
        setPending(true);
        void onConfirm(user, !deactivate).finally(() => setPending(false));
      }}
    >
      {user && (
        <p>
          <span className="font-medium">{name}</span> <span className="text-sm">({user.email})</span>{' '}
          {deactivate
            ? 'is signed out on every device at once and cannot sign in until an Admin reactivates the account. Their records stay.'
            : 'can sign in again with their password.'}
        </p>
      )}
    </ConfirmDialog>
  );
}
