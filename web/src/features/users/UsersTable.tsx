import type { User } from '../../../../shared/index.ts';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column } from '../../ui/DataTable.tsx';
import { localDate } from '../../lib/format-date.ts';
import { UserAvatar } from '../profile/UserAvatar.tsx';
import { listName } from './filter-users.ts';
import { RoleBadge } from './RoleBadge.tsx';
import { RowMenu } from '../../ui/RowMenu.tsx';

type Props = {
  users: User[] | undefined;
  selfId: string;
  onChangeRole: (user: User) => void;
  /** [U11] Opens the deactivate / reactivate question. */
  onSetActive: (user: User) => void;
  /** [U12] Opens the new-password dialog. */
  onResetPassword: (user: User) => void;
  /** [U18] A single-use link for them to set a new password. */
  onPasswordLink: (user: User) => void;
};

export function UsersTable({ users, selfId, onChangeRole, onSetActive, onResetPassword, onPasswordLink }: Props) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(users);
  const columns: Column<User>[] = [
    {
      header: 'User',
      key: 'user',
      cell: (user) => (
        <div className="flex items-center gap-3">
          <UserAvatar user={user} />
          <span className="font-medium">{listName(user)}</span>
          {user.id === selfId && <span className="badge badge-outline badge-sm">You</span>}
          {user.isActive === false && <span className="badge badge-warning badge-sm">Inactive</span>}
        </div>
      ),
    },
    { header: 'Email', key: 'email' },
    { header: 'Role', key: 'role', cell: (user) => <RoleBadge role={user.role} />, phone: 'status' },
    { header: 'Created', key: 'createdAt', cell: (user) => localDate(user.createdAt), phone: 'none' },
    {
      header: 'Actions',
      key: 'actions',
      // [B16] On phones the row's "⋯" holds them; the own row has none.
      phone: 'end',
      phoneCell: (user) =>
        user.id !== selfId && (
          <RowMenu
            title={listName(user)}
            actions={[
              { label: 'Change Role', run: () => onChangeRole(user) },
              { label: 'Reset Password', run: () => onResetPassword(user) },
              ...(user.isActive !== false ? [{ label: 'Password Link', run: () => onPasswordLink(user) }] : []),
              user.isActive === false
                ? { label: 'Reactivate', run: () => onSetActive(user) }
                : { label: 'Deactivate', run: () => onSetActive(user), destructive: true },
            ]}
          />
        ),
      cell: (user) =>
        user.id === selfId ? (
          <span className="badge badge-ghost whitespace-nowrap">Your Account</span>
        ) : (
          <div className="flex flex-wrap gap-1">
            <button
              type="button"
              className="btn btn-outline btn-sm"
              aria-label={`Change Role of ${listName(user)}`}
              onClick={() => onChangeRole(user)}
            >
              Change Role
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              aria-label={`Reset Password of ${listName(user)}`}
              onClick={() => onResetPassword(user)}
            >
              Reset Password
            </button>
            {user.isActive !== false && (
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={`Password Link for ${listName(user)}`}
                onClick={() => onPasswordLink(user)}
              >
                Password Link
              </button>
            )}
            {user.isActive === false ? (
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                aria-label={`Reactivate ${listName(user)}`}
                onClick={() => onSetActive(user)}
              >
                Reactivate
              </button>
            ) : (
              <button
                type="button"
                className="btn btn-ghost btn-sm text-error"
                aria-label={`Deactivate ${listName(user)}`}
                onClick={() => onSetActive(user)}
              >
                Deactivate
              </button>
            )}
          </div>
        ),
    },
  ];
  return <DataTable rows={users} columns={columns} label="Users" emptyText="No users found matching your criteria." />;
}
