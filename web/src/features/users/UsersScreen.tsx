import { useDeferredValue, useState } from 'react';
import { AddButton } from '../../ui/AddButton.tsx';
import { ROLES, type AccountLink, type ErrorIssue, type Role, type User } from '../../../../shared/index.ts';
import { useSyncField } from '../../data/context.tsx';
import { ApiError, isUnauthorized } from '../../lib/api.ts';
import { useToast } from '../../ui/Toast.tsx';
import { useAuth } from '../auth/AuthProvider.tsx';
import { signInAgain } from '../auth/unauthorized.ts';
import { AccountLinkDialog } from './AccountLinkDialog.tsx';
import { ChangeRoleDialog } from './ChangeRoleDialog.tsx';
import { ConfirmPasswordDialog } from './ConfirmPasswordDialog.tsx';
import { InviteDialog, type Invitation } from './InviteDialog.tsx';
import { ResetPasswordDialog } from './ResetPasswordDialog.tsx';
import { SetActiveDialog } from './SetActiveDialog.tsx';
import { filterUsers, type RoleFilter } from './filter-users.ts';
import { useAdminOnly } from './use-admin-only.ts';
import { useUsers } from './use-users.ts';
import { UsersTable } from './UsersTable.tsx';
import { UserTiles } from './UserTiles.tsx';
import { inviteUser, makeAccountLink, needsPassword, resetUserPassword, setUserActive, updateUserRole } from './users-api.ts';

/** [U16] An account change waiting for the Admin's password. */
type Confirming = {
  send: (currentPassword: string) => Promise<void>;
  failure: string;
  done: (result: ErrorIssue[] | true) => void;
};

/** [U1] User Management (Admin only). Accounts live on the server, so this needs a connection. */
export function UsersScreen({ goHome }: { goHome: () => void }) {
  const allowed = useAdminOnly(goHome);
  const auth = useAuth();
  const online = useSyncField('online');
  const toast = useToast();
  const { state, reload } = useUsers(allowed, online);
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<RoleFilter>('all');
  const [changing, setChanging] = useState<User | null>(null);
  const [toggling, setToggling] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [inviting, setInviting] = useState(false);
  const [shownLink, setShownLink] = useState<{ kind: 'invitation' | 'reset'; link: AccountLink } | null>(null);
  const deferredSearch = useDeferredValue(search);

  if (!allowed || auth.status !== 'signed-in') return null;
  const self = auth.user;
  const users = state.status === 'loaded' ? state.users : undefined;
  const shown = users && filterUsers(users, deferredSearch, role);

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
      {(state.status === 'offline' || (!online && state.status !== 'loaded')) && (
        <p role="alert" className="alert alert-warning">
          You are offline — the user list needs a connection. It loads when the connection is back.
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
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="card-title">
              Users <span className="badge badge-neutral">{shown?.length ?? 0}</span>
            </h2>
            <div className="flex w-full flex-wrap gap-2 sm:w-auto">
              <label className="input w-full sm:w-64">
                <span className="sr-only">Search users</span>
                <input type="search" placeholder="Search users..." value={search} onChange={(event) => setSearch(event.target.value)} />
              </label>
              <label className="select w-full sm:w-40">
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
            </div>
          </div>
          <UsersTable
            users={state.status === 'loading' || state.status === 'idle' ? undefined : (shown ?? [])}
            selfId={self.id}
            onChangeRole={setChanging}
            onSetActive={setToggling}
            onResetPassword={setResetting}
            onPasswordLink={(user) => void passwordLink(user)}
          />
        </div>
      </div>
      <ChangeRoleDialog user={changing} onCancel={() => setChanging(null)} onUpdate={update} />
      <SetActiveDialog user={toggling} onCancel={() => setToggling(null)} onConfirm={setActive} />
      <ResetPasswordDialog user={resetting} onCancel={() => setResetting(null)} onReset={resetPassword} />
      <InviteDialog open={inviting} onCancel={() => setInviting(false)} onInvite={invite} />
      <AccountLinkDialog link={shownLink} onClose={() => setShownLink(null)} />
      <ConfirmPasswordDialog open={confirming !== null} onCancel={cancelConfirm} onConfirm={confirm} />
    </section>
  );
}
