// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '../../../../shared/index.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { useUsersScreenTest } from '../../../test/users-screen.ts';
import { UsersScreen } from './UsersScreen.tsx';

const setup = useUsersScreenTest();
const { fetchMock } = setup;

const SELF = testUser('Admin');
const BOB = testUser('Staff', { id: 'u-2', firstName: 'Bob', lastName: 'Stable', email: 'bob@ranch.test' });
const CAROL = testUser('Viewer', { id: 'u-3', firstName: 'Carol', lastName: 'Gone', email: 'carol@ranch.test', isActive: false });

/** A server with these accounts: the list, PATCH isActive and PUT password ('fail' answers 500 to both). */
function serve(users: User[], mode: 'ok' | 'fail' = 'ok') {
  fetchMock.mockImplementation(async (url, init) => {
    if (url === '/api/users' && !init?.method) return Response.json(users);
    if (mode === 'fail') return new Response('boom', { status: 500 });
    const active = /^\/api\/users\/([^/]+)$/.exec(String(url));
    if (active && init?.method === 'PATCH') {
      const { isActive } = JSON.parse(String(init.body)) as { isActive: boolean };
      users = users.map((user) => (user.id === active[1] ? { ...user, isActive } : user));
      return Response.json(users.find((user) => user.id === active[1]));
    }
    if (/^\/api\/users\/[^/]+\/password$/.test(String(url)) && init?.method === 'PUT') return new Response(null, { status: 204 });
    return new Response('not found', { status: 404 });
  });
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;
const writes = () => fetchMock.mock.calls.filter(([, init]) => init?.method);

describe('Users screen: account lifecycle', () => {
  it('[U11] marks inactive accounts and offers no account actions on the own row', async () => {
    serve([SELF, BOB, CAROL]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    const carol = await rowOf('Carol Gone');
    expect(within(carol).getByText('Inactive')).toBeTruthy();
    expect(within(carol).getByRole('button', { name: 'Reactivate Carol Gone' })).toBeTruthy();
    const bob = await rowOf('Bob Stable');
    expect(within(bob).queryByText('Inactive')).toBeNull();
    expect(within(bob).getByRole('button', { name: 'Deactivate Bob Stable' })).toBeTruthy();
    expect(within(bob).getByRole('button', { name: 'Reset Password of Bob Stable' })).toBeTruthy();
    const own = await rowOf('Ada Rider');
    expect(within(own).queryByRole('button')).toBeNull();
    expect(within(own).getByText('Your Account')).toBeTruthy();
  });

  it('[U11] deactivates only after the confirmation, says so and shows the account inactive', async () => {
    serve([SELF, BOB, CAROL]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    fireEvent.click(within(await rowOf('Bob Stable')).getByRole('button', { name: 'Deactivate Bob Stable' }));
    let dialog = await screen.findByRole('dialog', { name: 'Deactivate User' });
    expect(within(dialog).getByText(/signed out on every device at once/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deactivate User' })).toBeNull());
    expect(writes()).toEqual([]);

    fireEvent.click(within(await rowOf('Bob Stable')).getByRole('button', { name: 'Deactivate Bob Stable' }));
    dialog = await screen.findByRole('dialog', { name: 'Deactivate User' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('User deactivated successfully')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/users/u-2', expect.objectContaining({ method: 'PATCH', body: '{"isActive":false}' }));
    const bob = await rowOf('Bob Stable');
    await waitFor(() => expect(within(bob).getByText('Inactive')).toBeTruthy());
    expect(within(bob).getByRole('button', { name: 'Reactivate Bob Stable' })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Deactivate User' })).toBeNull();
  });

  it('[U11] reactivates after the confirmation', async () => {
    serve([SELF, BOB, CAROL]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    fireEvent.click(within(await rowOf('Carol Gone')).getByRole('button', { name: 'Reactivate Carol Gone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate User' });
    expect(within(dialog).getByText(/can sign in again with their password/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByText('User reactivated successfully')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/users/u-3', expect.objectContaining({ method: 'PATCH', body: '{"isActive":true}' }));
    await waitFor(async () => expect(within(await rowOf('Carol Gone')).queryByText('Inactive')).toBeNull());
  });

  it('[U11] a failed deactivation says so and keeps the question open', async () => {
    serve([SELF, BOB], 'fail');
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    fireEvent.click(within(await rowOf('Bob Stable')).getByRole('button', { name: 'Deactivate Bob Stable' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Deactivate User' })).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Failed to deactivate user. Please try again.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Deactivate User' })).toBeTruthy();
  });

  it('[U12] resets a password through the dialog, checked with the account rules first', async () => {
    serve([SELF, BOB]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    fireEvent.click(within(await rowOf('Bob Stable')).getByRole('button', { name: 'Reset Password of Bob Stable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    expect(within(dialog).getByText(/signed out on every device/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/New Password/), { target: { value: 'short' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await within(dialog).findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(writes()).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText(/New Password/), { target: { value: 'a brand new password' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password reset successfully')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/users/u-2/password',
      expect.objectContaining({ method: 'PUT', body: '{"password":"a brand new password"}' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reset Password' })).toBeNull());
  });

  it('[U12] a refused reset says so and keeps the dialog open', async () => {
    serve([SELF, BOB], 'fail');
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    fireEvent.click(within(await rowOf('Bob Stable')).getByRole('button', { name: 'Reset Password of Bob Stable' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Password' });
    fireEvent.change(within(dialog).getByLabelText(/New Password/), { target: { value: 'a brand new password' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Failed to reset password. Please try again.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Reset Password' })).toBeTruthy();
  });

  it('[U16] asks for the password when the server wants it, sends the change again with it, and shows a wrong one', async () => {
    let users = [SELF, BOB];
    const confirmFirst = (message: string) =>
      Response.json({ message: `currentPassword: ${message}`, issues: [{ path: 'currentPassword', message }] }, { status: 400 });
    fetchMock.mockImplementation(async (url, init) => {
      if (url === '/api/users' && !init?.method) return Response.json(users);
      const body = JSON.parse(String(init?.body)) as { isActive: boolean; currentPassword?: string };
      if (body.currentPassword === undefined) return confirmFirst('Enter your password to confirm this change.');
      if (body.currentPassword !== 'my own password') return confirmFirst('Current password is incorrect.');
      users = users.map((user) => (user.id === 'u-2' ? { ...user, isActive: body.isActive } : user));
      return Response.json(users[1]);
    });
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    fireEvent.click(within(await rowOf('Bob Stable')).getByRole('button', { name: 'Deactivate Bob Stable' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Deactivate User' })).getByRole('button', { name: 'Deactivate' }));

    let confirm = await screen.findByRole('dialog', { name: 'Confirm Your Password' });
    expect(within(confirm).getByText(/Enter your password to confirm this change/)).toBeTruthy();
    // Cancelling sends nothing more and leaves the question open.
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm Your Password' })).toBeNull());
    expect(writes()).toHaveLength(1);
    // The question is open again: its Deactivate is offered once more (not "Deactivating...").
    const again = await within(screen.getByRole('dialog', { name: 'Deactivate User' })).findByRole('button', { name: 'Deactivate' });
    fireEvent.click(again);
    confirm = await screen.findByRole('dialog', { name: 'Confirm Your Password' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await within(confirm).findByText('Enter your password')).toBeTruthy();
    expect(writes()).toHaveLength(2);

    fireEvent.change(within(confirm).getByLabelText(/Your Password/), { target: { value: 'a guess' } });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await within(confirm).findByText('Current password is incorrect.')).toBeTruthy();
    expect(screen.queryByText('User deactivated successfully')).toBeNull();

    fireEvent.change(within(confirm).getByLabelText(/Your Password/), { target: { value: 'my own password' } });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('User deactivated successfully')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/users/u-2',
      expect.objectContaining({ method: 'PATCH', body: '{"isActive":false,"currentPassword":"my own password"}' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm Your Password' })).toBeNull());
    expect(screen.queryByRole('dialog', { name: 'Deactivate User' })).toBeNull();
    await waitFor(async () => expect(within(await rowOf('Bob Stable')).getByText('Inactive')).toBeTruthy());
  });
});
