import type { MouseEvent } from 'react';
import { DEFAULT_ROLE, type User } from '../../../../shared/index.ts';
import { useFirstRowsShown } from '../../data/doc-load-gate.ts';
import { DataTable, type Column, type RowAction } from '../../ui/DataTable.tsx';
import { EyeIcon } from '../../ui/icons.tsx';
import { dateSortValue, DATE_ORDER, type ListSort } from '../../ui/list-sort.ts';
import { searchText } from '../../ui/use-list-view.ts';
import { localDate } from '../../lib/format-date.ts';
import { UserAvatar } from '../profile/UserAvatar.tsx';
import { listName } from './filter-users.ts';
import { RoleBadge } from './RoleBadge.tsx';
import { RowMenu } from '../../ui/RowMenu.tsx';

/** [U19] What each column sorts by; the table's columns below take theirs from here. */
export const USER_SORTS: readonly Column<User>[] = [
  { header: 'User', key: 'user', sortValue: listName },
  { header: 'Email', key: 'email', sortValue: (user) => user.email },
  { header: 'Role', key: 'role', sortValue: (user) => user.role ?? DEFAULT_ROLE },
  { header: 'Created', key: 'createdAt', sortValue: (user) => dateSortValue(user.createdAt), sortNames: DATE_ORDER },
];
const sortOf = (key: string) => USER_SORTS.find((column) => column.key === key);

/** [U2] [U19] A person is found by first plus last name or e-mail. */
export const userText = (user: User) => searchText(`${user.firstName ?? ''} ${user.lastName ?? ''}`.trim(), user.email);
export const USERS_BY_NAME: ListSort = { key: 'user', direction: 'asc' };

/** [U20] A person's details have an address of their own (routes/users.$userId.tsx). */
export const userPath = (user: Pick<User, 'id'>) => `/users/${encodeURIComponent(user.id)}`;

type Props = {
  users: User[] | undefined;
  selfId: string;
  sort: ListSort;
  onSort: (sort: ListSort) => void;
  /** [U20] Opens the person's details (their address). */
  onView: (user: User) => void;
  /** [U20] Set while account changes cannot be made (no connection): the id of the text that says why. */
  lockedBy?: string | undefined;
  onChangeRole: (user: User) => void;
  /** [U11] Opens the deactivate / reactivate question. */
  onSetActive: (user: User) => void;
  /** [U12] Opens the new-password dialog. */
  onResetPassword: (user: User) => void;
  /** [U18] A single-use link for them to set a new password. */
  onPasswordLink: (user: User) => void;
};

/** A plain click opens the details in the app; a middle click or one with a modifier key is the browser's (a new tab). */
const inApp = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

export function UsersTable({ users, selfId, sort, onSort, onView, lockedBy, ...handlers }: Props) {
  // The document load waits for the first list on screen (data/doc-load-gate.ts).
  useFirstRowsShown(users);
  const badges = (user: User) => (
    <>
      {user.id === selfId && <span className="badge badge-outline badge-sm">You</span>}
      {user.isActive === false && <span className="badge badge-warning badge-sm">Inactive</span>}
    </>
  );
  const locked = lockedBy !== undefined;
  const columns: Column<User>[] = [
    {
      ...sortOf('user'),
      header: 'User',
      key: 'user',
      cell: (user) => (
        <div className="flex items-center gap-3">
          <UserAvatar user={user} />
          <a
            href={userPath(user)}
            className="link link-hover font-medium"
            onClick={(event) => {
              if (!inApp(event)) return;
              event.preventDefault();
              onView(user);
            }}
          >
            {listName(user)}
          </a>
          {badges(user)}
        </div>
      ),
      // [B16] On phones the whole row opens the details (View Details below).
      phoneLead: (user) => <UserAvatar user={user} />,
      phoneCell: (user) => (
        <span className="flex items-center gap-2">
          <span className="truncate">{listName(user)}</span>
          {badges(user)}
        </span>
      ),
    },
    { ...sortOf('email'), header: 'Email', key: 'email' },
    { ...sortOf('role'), header: 'Role', key: 'role', cell: (user) => <RoleBadge role={user.role} />, phone: 'status' },
    { ...sortOf('createdAt'), header: 'Created', key: 'createdAt', cell: (user) => localDate(user.createdAt), phone: 'none' },
    {
      header: 'Actions',
      key: 'actions',
      // [B16] On phones the row's "⋯" holds them; the own row has none, nor any row while changes cannot be made (the details say why).
      phone: 'end',
      phoneCell: (user) => user.id !== selfId && !locked && <RowMenu title={listName(user)} actions={accountActions(user, handlers)} />,
      cell: (user) =>
        user.id === selfId ? (
          <span className="badge badge-ghost whitespace-nowrap">Your Account</span>
        ) : (
          <UserActions user={user} size="btn-sm" lockedBy={lockedBy} {...handlers} />
        ),
    },
  ];
  const actions: RowAction<User>[] = [{ label: 'View Details', icon: <EyeIcon />, onClick: onView, main: true, phoneOnly: true }];
  return (
    <DataTable
      rows={users}
      columns={columns}
      actions={actions}
      label="Users"
      emptyText="No users found matching your criteria."
      sort={sort}
      onSort={onSort}
    />
  );
}

type Handlers = Pick<Props, 'onChangeRole' | 'onSetActive' | 'onResetPassword' | 'onPasswordLink'>;

/**
 * [U4] [U11] [U12] [U18] What an Admin does to another account: the row's, the "⋯" menu's and
 * the details' actions. `name` is the button's accessible name in a table of many people.
 */
function accountActions(user: User, { onChangeRole, onSetActive, onResetPassword, onPasswordLink }: Handlers) {
  const who = listName(user);
  const active = user.isActive !== false;
  return [
    { label: 'Change Role', name: `Change Role of ${who}`, run: () => onChangeRole(user), outline: true },
    { label: 'Reset Password', name: `Reset Password of ${who}`, run: () => onResetPassword(user) },
    ...(active ? [{ label: 'Password Link', name: `Password Link for ${who}`, run: () => onPasswordLink(user) }] : []),
    active
      ? { label: 'Deactivate', name: `Deactivate ${who}`, run: () => onSetActive(user), destructive: true }
      : { label: 'Reactivate', name: `Reactivate ${who}`, run: () => onSetActive(user) },
  ];
}

/**
 * The account's actions as buttons: Change Role outlined, the others quiet, Deactivate in quiet
 * red (docs/design.md "Buttons"). Disabled while `lockedBy` (the id of the text saying why) is set.
 * `layout`: the classes of their box (a row's wrap; two by two in the details on phones).
 */
export function UserActions({
  user,
  size = '',
  layout = 'flex flex-wrap gap-1',
  lockedBy,
  ...handlers
}: Handlers & Pick<Props, 'lockedBy'> & { user: User; size?: string; layout?: string }) {
  const locked = lockedBy !== undefined;
  return (
    <div className={layout}>
      {accountActions(user, handlers).map((action) => (
        <button
          key={action.label}
          type="button"
          // Disabled, a destructive one looks as disabled as the others.
          className={`btn ${action.outline ? 'btn-outline' : 'btn-ghost'} ${action.destructive && !locked ? 'text-error' : ''} ${size}`}
          aria-label={action.name}
          aria-describedby={lockedBy}
          disabled={locked}
          onClick={action.run}
        >
          {action.label}
        </button>
      ))}
    </div>
  );
}
