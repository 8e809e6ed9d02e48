import { useId, useMemo, useState } from 'react';
import { AddButton } from '../../ui/AddButton.tsx';
import { DEFAULT_ROLE, ROLES, type AccountLink, type ErrorIssue, type Role, type User } from '../../../../shared/index.ts';
import { useSyncField } from '../../data/context.tsx';
import { ApiError, isUnauthorized } from '../../lib/api.ts';
import { ListCount, SortChoice } from '../../ui/ListControls.tsx';
import { MissingRecord, useRecordLink, type RecordLink } from '../../ui/record-link.tsx';
import { useToast } from '../../ui/Toast.tsx';
import { useListView } from '../../ui/use-list-view.ts';
import { useAuth } from '../auth/AuthProvider.tsx';
import { signInAgain } from '../auth/unauthorized.ts';
import { AccountLinkDialog } from './AccountLinkDialog.tsx';
import { ChangeRoleDialog } from './ChangeRoleDialog.tsx';
import { ConfirmPasswordDialog } from './ConfirmPasswordDialog.tsx';
import { InviteDialog, type Invitation } from './InviteDialog.tsx';
import { ResetPasswordDialog } from './ResetPasswordDialog.tsx';
import { SetActiveDialog } from './SetActiveDialog.tsx';
import type { RoleFilter } from './filter-users.ts';
import { fetchedWhen } from './kept-users.ts';
import { useAdminOnly } from './use-admin-only.ts';
import { useUsers } from './use-users.ts';
import { UserDetailsDialog } from './UserDetailsDialog.tsx';
import { USER_SORTS, userText, USERS_BY_NAME, UsersTable } from './UsersTable.tsx';
import { UserTiles } from './UserTiles.tsx';
import { inviteUser, makeAccountLink, needsPassword, resetUserPassword, setUserActive, updateUserRole } from './users-api.ts';

/** [U16] An account change waiting for the Admin's password. */
type Confirming = {
  send: (currentPassword: string) => Promise<void>;
  failure: string;
  done: (result: ErrorIssue[] | true) => void;
};

/** [U20] Why account changes cannot be made with no connection. */
export const OFFLINE_CHANGES = 'You are offline — account changes need a connection.';

/**
 * [U1] User Management (Admin only). Accounts live on the server: a change needs a
 * connection, and with none the list is the last one fetched on this device ([U20]).
 * [U19] The list searches, sorts and counts as the others do; [U20] /users/<id> opens a
 * person's details over it.
 */
export function UsersScreen({ goHome, link }: { goHome: () => void; link?: RecordLink | undefined }) {
  const allowed = useAdminOnly(goHome);
  const auth = useAuth();
  const online = useSyncField('online');
  const toast = useToast();
  const adminId = allowed && auth.status === 'signed-in' ? auth.user.id : null;
  const { state, reload } = useUsers(adminId, online);
  const users = state.list?.users;
  const [role, setRole] = useState<RoleFilter>('all');
  const ofRole = useMemo(() => (role === 'all' ? users : users?.filter((user) => (user.role ?? DEFAULT_ROLE) === role)), [users, role]);
  const view = useListView(ofRole, USER_SORTS, userText, USERS_BY_NAME);
  const { id: viewingId, open: showDetails } = useRecordLink(link);
  const offlineNote = useId();
  const [changing, setChanging] = useState<User | null>(null);
  const [toggling, setToggling] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [inviting, setInviting] = useState(false);
  const [shownLink, setShownLink] = useState<{ kind: 'invitation' | 'reset'; link: AccountLink } | null>(null);

  if (!allowed || auth.status !== 'signed-in') return null;
  const self = auth.user;
  const offline = !online || state.status === 'offline';
  // Fetched since the screen opened and still reachable: else the list is the device's, with its time.
  const fresh = state.status === 'loaded' && !offline;
  const fetched = state.list && !fresh ? fetchedWhen(state.list.fetchedAt) : undefined;
  const reading = state.status === 'loading' || state.status === 'idle';
  // [U20] A link to an account the list does not have: not-found once the list is the answer.
  const found = viewingId && users ? users.find((user) => user.id === viewingId) : undefined;
  const viewing = found ?? (viewingId && users && !reading ? null : undefined);

  const update = async (user: User, next: Role) => {
    if (user.id === self.id) {
      toast({ title: 'Cannot Update', description: 'You cannot change your own role.', variant: 'destructive' });
      return;
    }
    const result = await attempt((password) => updateUserRole(user.id, next, password), 'Failed to update user role. Please try again.');
    if (result !== true) return;
    setChanging(null);
    toast({ title: 'Success', description: 'User role updated successfully', variant: 'success' });
    await reload();
  };

  /** The fields the server refused, after saying why (or sending the browser to sign in). */
  const refused = (error: unknown, failure: string): ErrorIssue[] => {
    if (isUnauthorized(error)) {
      signInAgain(toast);
      return [];
    }
    toast({ title: 'Error', description: failure, variant: 'destructive' });
    return error instanceof ApiError ? error.issues : [];
  };

  /**
   * True when the request went through; else it has said why. When the server wants the
   * Admin's password first ([U16]), it is asked for and the request sent again with it;
   * cancelling leaves the change unsent.
   */
  const attempt = async (request: (currentPassword?: string) => Promise<void>, failure: string): Promise<ErrorIssue[] | true> => {
    try {
      await request();
      return true;
    } catch (error) {
      if (needsPassword(error)) return new Promise((done) => setConfirming({ send: request, failure, done }));
      return refused(error, failure);
    }
  };

  const confirm = async (password: string): Promise<ErrorIssue[]> => {
    if (!confirming) return [];
    try {
      await confirming.send(password);
    } catch (error) {
      if (needsPassword(error)) return error.issues;
      setConfirming(null);
      confirming.done(refused(error, confirming.failure));
      return [];
    }
    setConfirming(null);
    confirming.done(true);
    return [];
  };

  const cancelConfirm = () => {
    confirming?.done([]);
    setConfirming(null);
  };

  // [U11] Deactivating signs the account out everywhere at once; reactivating lets it sign in again.
  const setActive = async (user: User, isActive: boolean) => {
    const verb = isActive ? 'reactivate' : 'deactivate';
    const result = await attempt((password) => setUserActive(user.id, isActive, password), `Failed to ${verb} user. Please try again.`);
    if (result !== true) return;
    setToggling(null);
    toast({ title: 'Success', description: `User ${verb}d successfully`, variant: 'success' });
    await reload();
  };

  // [U12] A new password for someone else; the server ends their sessions.
  const resetPassword = async (user: User, password: string): Promise<ErrorIssue[]> => {
    const result = await attempt(
      (currentPassword) => resetUserPassword(user.id, password, currentPassword),
      'Failed to reset password. Please try again.',
    );
    if (result !== true) return result;
    setResetting(null);
    toast({ title: 'Success', description: 'Password reset successfully', variant: 'success' });
    return [];
  };

  // [U17] Add a person: their account and the link where they set their own password.
  const invite = async (invitation: Invitation): Promise<ErrorIssue[]> => {
    let made: AccountLink | undefined;
    const result = await attempt(async (currentPassword) => {
      made = await inviteUser(invitation, currentPassword);
    }, 'Failed to add the person. Please try again.');
    if (result !== true || !made) return result === true ? [] : result;
    setInviting(false);
    setShownLink({ kind: 'invitation', link: made });
    await reload();
    return [];
  };

  // [U18] A single-use link for another account to set a new password.
  const passwordLink = async (user: User) => {
    let made: AccountLink | undefined;
    const result = await attempt(async (currentPassword) => {
      made = await makeAccountLink(user.id, currentPassword);
    }, 'Failed to make the link. Please try again.');
    if (result === true && made) setShownLink({ kind: 'reset', link: made });
  };

  return (
    <section className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold max-md:sr-only">User Management</h1>
          <p className="text-base-content/70 max-md:hidden">Manage user accounts and roles</p>
        </div>
        <AddButton label="Add Person" disabled={!online} onClick={() => setInviting(true)} />
      </div>
      {offline && (
        <p role="alert" id={offlineNote} className="alert alert-warning">
          {state.list
            ? `You are offline — this is the user list as fetched on this device ${fetchedWhen(state.list.fetchedAt)}. Account changes need a connection.`
            : 'You are offline — the user list needs a connection. It loads when the connection is back.'}
        </p>
      )}
      {state.status === 'error' && (
        <div role="alert" className="alert alert-error">
          <span>The user list could not be loaded.</span>
          <button type="button" className="btn btn-sm btn-outline" onClick={() => void reload()}>
            Try again
          </button>
        </div>
      )}
      <UserTiles users={users} />
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body gap-4">
          <h2 className="card-title">Users</h2>
          <div className="space-y-2">
            <div className="flex flex-wrap items-center gap-2">
              <label className="input w-full max-w-md flex-1">
                <span className="sr-only">Search users</span>
                <input
                  type="search"
                  placeholder="Search users..."
                  value={view.search}
                  onChange={(event) => view.setSearch(event.target.value)}
                />
              </label>
              {/* Side by side on phones, where the order is a choice too. */}
              <div className="flex w-full gap-2 sm:w-auto">
                <label className="select w-32 shrink-0 sm:w-40">
                  <span className="sr-only">Filter by role</span>
                  <select value={role} onChange={(event) => setRole(event.target.value as RoleFilter)}>
                    <option value="all">All</option>
                    {ROLES.map((choice) => (
                      <option key={choice} value={choice}>
                        {choice}
                      </option>
                    ))}
                  </select>
                </label>
                <SortChoice columns={USER_SORTS} sort={view.sort} onSort={view.setSort} />
              </div>
            </div>
            {/* The count of all accounts: '1 of 3 users' while the role or the search narrows it. */}
            <ListCount noun="users" one="user" shown={view.shown?.length} total={users?.length} />
          </div>
          <UsersTable
            users={view.shown ?? (reading ? undefined : [])}
            selfId={self.id}
            sort={view.sort}
            onSort={view.setSort}
            onView={(user) => showDetails(user.id)}
            lockedBy={offline ? offlineNote : undefined}
            onChangeRole={setChanging}
            onSetActive={setToggling}
            onResetPassword={setResetting}
            onPasswordLink={(user) => void passwordLink(user)}
          />
        </div>
      </div>
      {viewing === null && <MissingRecord what="user" onBack={() => showDetails(null)} />}
      <UserDetailsDialog
        user={viewing ?? null}
        selfId={self.id}
        onClose={() => showDetails(null)}
        locked={offline ? OFFLINE_CHANGES : undefined}
        fetched={fetched}
        onChangeRole={setChanging}
        onSetActive={setToggling}
        onResetPassword={setResetting}
        onPasswordLink={(user) => void passwordLink(user)}
      />
      <ChangeRoleDialog user={changing} onCancel={() => setChanging(null)} onUpdate={update} />
      <SetActiveDialog user={toggling} onCancel={() => setToggling(null)} onConfirm={setActive} />
      <ResetPasswordDialog user={resetting} onCancel={() => setResetting(null)} onReset={resetPassword} />
      <InviteDialog open={inviting} onCancel={() => setInviting(false)} onInvite={invite} />
      <AccountLinkDialog link={shownLink} onClose={() => setShownLink(null)} />
      <ConfirmPasswordDialog open={confirming !== null} onCancel={cancelConfirm} onConfirm={confirm} />
    </section>
  );
}
