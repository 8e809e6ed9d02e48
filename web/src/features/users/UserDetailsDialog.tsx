import { useId } from 'react';
import type { User } from '../../../../shared/index.ts';
import { localDate } from '../../lib/format-date.ts';
import { Modal } from '../../ui/Modal.tsx';
import { EmailLink } from '../contacts/contact-links.tsx';
import { UserAvatar } from '../profile/UserAvatar.tsx';
import { listName } from './filter-users.ts';
import { RoleBadge } from './RoleBadge.tsx';
import { UserActions } from './UsersTable.tsx';

type Props = {
  /** The person shown; null when closed. */
  user: User | null;
  selfId: string;
  onClose: () => void;
  /** Set while account changes cannot be made: why, shown beside the disabled actions. */
  locked?: string | undefined;
  /** [U20] When the list shown was fetched, while it is the one kept on the device ('3 h ago (…)'). */
  fetched?: string | undefined;
} & Omit<Parameters<typeof UserActions>[0], 'user' | 'size' | 'layout' | 'lockedBy'>;

/**
 * [U20] 'User Details': a person's account as the user list has it, and what an Admin may do
 * to it (the row's actions); one's own account has none ([R5]).
 */
export function UserDetailsDialog({ user, selfId, onClose, locked, fetched, ...actions }: Props) {
  const lockedId = useId();
  return (
    <Modal open={user !== null} title="User Details" onClose={onClose}>
      {user && (
        <div className="space-y-4">
          <div className="flex items-center gap-3">
            <UserAvatar user={user} size="w-12" />
            <div className="min-w-0">
              <p className="truncate text-lg font-semibold">{listName(user)}</p>
              <p className="flex flex-wrap gap-1">
                {user.id === selfId && <span className="badge badge-outline badge-sm">You</span>}
                {user.isActive === false && <span className="badge badge-warning badge-sm">Inactive</span>}
              </p>
            </div>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-base-content/70">Email</dt>
            <dd className="min-w-0 break-all">
              <EmailLink email={user.email} />
            </dd>
            <dt className="text-base-content/70">Role</dt>
            <dd>
              <RoleBadge role={user.role} />
            </dd>
            <dt className="text-base-content/70">Status</dt>
            <dd>{user.isActive === false ? 'Inactive: cannot sign in' : 'Active'}</dd>
            <dt className="text-base-content/70">Member since</dt>
            <dd>{localDate(user.createdAt)}</dd>
            <dt className="text-base-content/70">Last updated</dt>
            <dd>{localDate(user.updatedAt)}</dd>
          </dl>
          {fetched && <p className="text-sm text-base-content/70">As the user list was fetched on this device {fetched}.</p>}
          {user.id === selfId ? (
            <p className="text-sm text-base-content/70">Your Account: your own details and password are changed in Profile.</p>
          ) : (
            <section aria-label="Account actions" className="space-y-2">
              {locked && (
                <p id={lockedId} className="text-sm text-base-content/70">
                  {locked}
                </p>
              )}
              <UserActions
                user={user}
                layout="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap"
                lockedBy={locked ? lockedId : undefined}
                {...actions}
              />
            </section>
          )}
        </div>
      )}
    </Modal>
  );
}
