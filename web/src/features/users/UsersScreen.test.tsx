// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '../../../../shared/index.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { serveUsers, useUsersScreenTest } from '../../../test/users-screen.ts';
import { UsersScreen } from './UsersScreen.tsx';

const setup = useUsersScreenTest();
const { fetchMock } = setup;

const SELF = testUser('Admin');
const OTHERS: User[] = [
  testUser('Staff', { id: 'u-2', firstName: 'Bob', lastName: 'Stable', email: 'bob@ranch.test' }),
  testUser('Viewer', { id: 'u-3', firstName: null, lastName: null, email: 'carol.view@ranch.test' }),
];

const serve = (users: User[]) => serveUsers(fetchMock, users);

const tile = (label: string) => within(screen.getByRole('list', { name: 'User summary' })).getByText(label).nextElementSibling?.textContent;

describe('Users screen', () => {
  it('[U1] [U3] lists users with tiles, badges and the own row marked', async () => {
    serve([SELF, ...OTHERS]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    expect(await screen.findByText('bob@ranch.test')).toBeTruthy();
    expect(tile('Total Users')).toBe('3');
    expect(tile('Admins')).toBe('1');
    expect(tile('Staff')).toBe('1');
    expect(tile('Viewers')).toBe('1');
    expect(screen.getByRole('heading', { name: 'Users' })).toBeTruthy();
    expect(screen.getByTestId('list-count').textContent).toBe('3 users');
    for (const header of ['User', 'Email', 'Role', 'Created', 'Actions'])
      expect(screen.getByRole('columnheader', { name: header })).toBeTruthy();

    const own = screen.getByText('Ada Rider').closest('tr')!;
    expect(within(own).getByText('You')).toBeTruthy();
    expect(within(own).getByText('Your Account')).toBeTruthy();
    expect(within(own).queryByRole('button')).toBeNull();
    // [U20] Each name links to the person's details.
    expect(within(own).getByRole('link', { name: 'Ada Rider' }).getAttribute('href')).toBe('/users/user-self');
    // No name: the part of the e-mail before the at sign.
    const carol = screen.getByText('carol.view').closest('tr')!;
    expect(within(carol).getByText('Viewer').className).toContain('badge-ghost');
    expect(within(carol).getByRole('button', { name: /Change Role/ })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/users', expect.objectContaining({ credentials: 'include' }));
  });

  it('[U2] searches e-mail or full name ignoring case, filters by role, and says when nothing matches', async () => {
    serve([SELF, ...OTHERS]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    await screen.findByText('bob@ranch.test');
    fireEvent.change(screen.getByPlaceholderText('Search users...'), { target: { value: 'BOB STA' } });
    await waitFor(() => expect(screen.queryByText('Ada Rider')).toBeNull());
    expect(screen.getByText('Bob Stable')).toBeTruthy();
    fireEvent.change(screen.getByPlaceholderText('Search users...'), { target: { value: 'CAROL.VIEW@' } });
    await waitFor(() => expect(screen.queryByText('Bob Stable')).toBeNull());
    fireEvent.change(screen.getByPlaceholderText('Search users...'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Filter by role'), { target: { value: 'Admin' } });
    await waitFor(() => expect(screen.queryByText('Bob Stable')).toBeNull());
    expect(screen.getByText('Ada Rider')).toBeTruthy();
    expect(
      within(screen.getByLabelText('Filter by role'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All', 'Admin', 'Staff', 'Viewer']);
    fireEvent.change(screen.getByPlaceholderText('Search users...'), { target: { value: 'nobody' } });
    expect(await screen.findByText('No users found matching your criteria.')).toBeTruthy();
  });

  it('[U19] counts the accounts, sorts by name in natural order or by a header, and counts what a search or role leaves', async () => {
    const hand = (id: string, lastName: string, createdAt: string) =>
      testUser('Staff', { id, firstName: 'Hand', lastName, email: `hand${lastName}@ranch.test`, createdAt });
    serve([hand('h-10', '10', '2025-01-01T10:00:00.000Z'), SELF, hand('h-2', '2', '2023-01-01T10:00:00.000Z'), ...OTHERS]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    await screen.findByText('bob@ranch.test');
    const count = () => screen.getByTestId('list-count').textContent;
    const names = () =>
      within(screen.getByRole('table', { name: 'Users' }))
        .getAllByRole('link')
        .map((link) => link.textContent);
    expect(count()).toBe('5 users');
    // By name at first, numbers in names as numbers ([B7]).
    expect(names()).toEqual(['Ada Rider', 'Bob Stable', 'carol.view', 'Hand 2', 'Hand 10']);

    fireEvent.click(screen.getByRole('button', { name: /^Created/ }));
    expect(names()).toEqual(['Hand 2', 'Ada Rider', 'Bob Stable', 'carol.view', 'Hand 10']);
    fireEvent.click(screen.getByRole('button', { name: /^Created/ }));
    // Newest first; accounts made the same moment stay in name order.
    expect(names()).toEqual(['Hand 10', 'Ada Rider', 'Bob Stable', 'carol.view', 'Hand 2']);
    expect(screen.getByRole('columnheader', { name: /^Created/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: /^Role/ }));
    expect(names().slice(0, 1)).toEqual(['Ada Rider']);
    expect(names().at(-1)).toBe('carol.view');

    fireEvent.change(screen.getByPlaceholderText('Search users...'), { target: { value: 'HAND' } });
    await waitFor(() => expect(count()).toBe('2 of 5 users'));
    fireEvent.change(screen.getByPlaceholderText('Search users...'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Filter by role'), { target: { value: 'Staff' } });
    await waitFor(() => expect(count()).toBe('3 of 5 users'));
    fireEvent.change(screen.getByPlaceholderText('Search users...'), { target: { value: 'bob' } });
    await waitFor(() => expect(count()).toBe('1 of 5 users'));
    expect(names()).toEqual(['Bob Stable']);
  });

  it('[U4] changes another user role through the dialog', async () => {
    serve([SELF, ...OTHERS]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    const bob = (await screen.findByText('Bob Stable')).closest('tr')!;
    fireEvent.click(within(bob).getByRole('button', { name: /Change Role/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Change User Role' });
    expect(within(dialog).getByText('Select a new role for the user')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Role'), { target: { value: 'Viewer' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Role' }));
    expect(await screen.findByText('User role updated successfully')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/users/u-2/role', expect.objectContaining({ method: 'PUT', body: '{"role":"Viewer"}' }));
    await waitFor(() => expect(tile('Viewers')).toBe('2'));
  });

  it('[U4] a failed role change says so', async () => {
    serve([SELF, ...OTHERS]);
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    const bob = (await screen.findByText('Bob Stable')).closest('tr')!;
    fetchMock.mockResolvedValue(new Response('nope', { status: 500 }));
    fireEvent.click(within(bob).getByRole('button', { name: /Change Role/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Change User Role' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Role' }));
    expect(await screen.findByText('Failed to update user role. Please try again.')).toBeTruthy();
  });

  it('[R4] non-admins get Access Denied and go home after 1 second, without a fetch', async () => {
    vi.useFakeTimers();
    const goHome = vi.fn();
    renderScreen(<UsersScreen goHome={goHome} />, { data: setup.data(), user: testUser('Staff') });
    // Lets the signed-in user arrive (a resolved promise) without moving the clock.
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText('Access Denied')).toBeTruthy();
    expect(screen.getByText("You don't have permission to access this page.")).toBeTruthy();
    act(() => vi.advanceTimersByTime(999));
    expect(goHome).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(goHome).toHaveBeenCalledTimes(1);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByText('Total Users')).toBeNull();
  });

  it('[U5] offline, it says the list needs a connection', async () => {
    setup.data().status.set({ online: false });
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    expect(await screen.findByText(/You are offline — the user list needs a connection/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
