// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '../../../../shared/index.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { serveUsers, useUsersScreenTest } from '../../../test/users-screen.ts';
import { clearCachedUser } from '../auth/user-cache.ts';
import { readKeptUsers } from './kept-users.ts';
import { OFFLINE_CHANGES, UsersScreen } from './UsersScreen.tsx';

const setup = useUsersScreenTest();
const { fetchMock } = setup;

const SELF = testUser('Admin');
const BOB = testUser('Staff', { id: 'u-2', firstName: 'Bob', lastName: 'Stable', email: 'bob@ranch.test' });
const CAROL = testUser('Viewer', { id: 'u-3', firstName: 'Carol', lastName: 'Gone', email: 'carol@ranch.test', isActive: false });

const serve = (users: User[]) => serveUsers(fetchMock, users);

/** The screen as its route gives it: the person viewed is the address's (`opened` records each). */
const opened: (string | null)[] = [];
function Linked({ start }: { start: string | null }) {
  const [id, setId] = useState(start);
  const open = (next: string | null) => {
    opened.push(next);
    setId(next);
  };
  return <UsersScreen goHome={() => {}} link={{ id, open }} />;
}

const ACCOUNT_ACTION = /^(Change Role|Reset Password|Password Link|Deactivate|Reactivate)/;
/** The first render on a busy machine waits for the list's fetch and the screen's modules. */
const SLOW = { timeout: 10_000 };
const details = () => screen.findByRole('dialog', { name: 'User Details' }, SLOW);

describe('a user’s details by their link', () => {
  beforeEach(() => {
    opened.length = 0;
  });

  it('[U20] the link opens the person’s details; a name in the list opens them; closing goes back to the list', async () => {
    serve([SELF, BOB, CAROL]);
    renderScreen(<Linked start="u-2" />, { data: setup.data(), user: SELF });
    const bob = await details();
    await within(bob).findByText('Bob Stable');
    expect(within(bob).getByRole('link', { name: 'bob@ranch.test' })).toBeTruthy();
    expect(within(bob).getByText('Staff')).toBeTruthy();
    expect(within(bob).getByText('Active')).toBeTruthy();
    expect(within(bob).getByRole('button', { name: 'Deactivate Bob Stable' }).hasAttribute('disabled')).toBe(false);
    fireEvent.click(within(bob).getAllByRole('button', { name: 'Close' })[0]!);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'User Details' })).toBeNull());
    expect(opened).toEqual([null]);

    const table = screen.getByRole('table', { name: 'Users' });
    // On desks the name is the row's link; no View Details button beside the row's actions.
    expect(within(table).queryByRole('button', { name: 'View Details' })).toBeNull();
    fireEvent.click(within(table).getByRole('link', { name: 'Carol Gone' }));
    const carol = await details();
    expect(within(carol).getByText('Inactive: cannot sign in')).toBeTruthy();
    expect(within(carol).getByRole('button', { name: 'Reactivate Carol Gone' })).toBeTruthy();
    expect(opened).toEqual([null, 'u-3']);
  });

  it('[U20] a role changed from the details shows in them', async () => {
    serve([SELF, BOB]);
    renderScreen(<Linked start="u-2" />, { data: setup.data(), user: SELF });
    const bob = await details();
    fireEvent.click(await within(bob).findByRole('button', { name: 'Change Role of Bob Stable' }));
    const change = await screen.findByRole('dialog', { name: 'Change User Role' });
    fireEvent.change(within(change).getByLabelText('Role'), { target: { value: 'Viewer' } });
    fireEvent.click(within(change).getByRole('button', { name: 'Update Role' }));
    expect(await screen.findByText('User role updated successfully')).toBeTruthy();
    await within(bob).findByText('Viewer');
  });

  it('[U20] [R5] the own account’s details offer no account action', async () => {
    serve([SELF, BOB]);
    renderScreen(<Linked start={SELF.id} />, { data: setup.data(), user: SELF });
    const own = await details();
    await within(own).findByText(/Your Account: your own details and password are changed in Profile/);
    expect(within(own).queryByRole('button', { name: ACCOUNT_ACTION })).toBeNull();
  });

  it('[U20] a link to an account the list does not have says so, with Show all back to the list', async () => {
    serve([SELF, BOB]);
    renderScreen(<Linked start="no-such-user" />, { data: setup.data(), user: SELF });
    const missing = await screen.findByRole('alert', {}, SLOW);
    await waitFor(() =>
      expect(missing.textContent).toContain('This user is not on this device: it may have been deleted, or not reached this device yet.'),
    );
    fireEvent.click(within(missing).getByRole('button', { name: 'Show all' }));
    expect(opened).toEqual([null]);
    await waitFor(() => expect(screen.queryByText(/This user is not on this device/)).toBeNull());
  });

  it('[U20] offline, the link opens from the list last fetched here, says when, and account changes wait for a connection', async () => {
    serve([SELF, BOB, CAROL]);
    const first = renderScreen(<Linked start={null} />, { data: setup.data(), user: SELF });
    await screen.findByText('bob@ranch.test', {}, SLOW);
    first.unmount();
    fetchMock.mockReset();

    setup.data().status.set({ online: false });
    renderScreen(<Linked start="u-2" />, { data: setup.data(), user: SELF });
    const bob = await details();
    await within(bob).findByText('Bob Stable');
    expect(within(bob).getByText(/^As the user list was fetched on this device just now \(/)).toBeTruthy();
    const change = within(bob).getByRole('button', { name: 'Change Role of Bob Stable' });
    expect(change.hasAttribute('disabled')).toBe(true);
    const why = document.getElementById(change.getAttribute('aria-describedby')!);
    expect(why?.textContent).toBe(OFFLINE_CHANGES);
    const actions = within(bob).getAllByRole('button', { name: ACCOUNT_ACTION });
    expect(actions.map((button) => button.hasAttribute('disabled'))).toEqual([true, true, true, true]);
    // The list under it is the one kept, its changes off, and the page says so.
    expect(screen.getByText(/You are offline — this is the user list as fetched on this device just now/)).toBeTruthy();
    expect(screen.getByTestId('list-count').textContent).toBe('3 users');
    const row = within(screen.getByRole('table', { name: 'Users' })).getByRole('button', { name: 'Deactivate Bob Stable' });
    expect(row.hasAttribute('disabled')).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('[U20] the kept list is read by the Admin who fetched it only, and forgotten with the signed-in user', async () => {
    serve([SELF, BOB]);
    renderScreen(<Linked start={null} />, { data: setup.data(), user: SELF });
    await screen.findByText('bob@ranch.test', {}, SLOW);
    expect(readKeptUsers(SELF.id)?.users.map((user) => user.email)).toEqual([SELF.email, BOB.email]);
    expect(readKeptUsers('another-admin')).toBeNull();
    clearCachedUser();
    expect(readKeptUsers(SELF.id)).toBeNull();
  });

  it('[U20] [B16] on a phone a tap on a person’s row opens the details; offline their "⋯" is gone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    serve([SELF, BOB]);
    renderScreen(<Linked start={null} />, { data: setup.data(), user: SELF });
    const list = await screen.findByRole('list', { name: 'Users' }, SLOW);
    const row = (await within(list).findAllByText('Bob Stable'))[0]!.closest('li')!;
    expect(within(row).getByRole('button', { name: /^Actions for/ })).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: /View Details/ }));
    await within(await details()).findByText('bob@ranch.test');
    expect(opened).toEqual(['u-2']);

    setup.data().status.set({ online: false });
    await waitFor(() => expect(within(row).queryByRole('button', { name: /^Actions for/ })).toBeNull());
  });
});
