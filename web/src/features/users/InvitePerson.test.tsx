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
const LINK = 'http://192.168.1.20:8787/api/account-link/abcdefghijklmnopqrstuvwxyz234567';

describe('Users screen: adding a person', () => {
  it('[U17] Add Person sends name, e-mail and role, then shows the link and its QR code once', async () => {
    let users: User[] = [SELF];
    const sent: unknown[] = [];
    fetchMock.mockImplementation(async (url, init) => {
      if (url === '/api/users' && !init?.method) return Response.json(users);
      if (url === '/api/users/invitations' && init?.method === 'POST') {
        const body = JSON.parse(String(init.body));
        sent.push(body);
        if (body.email === 'taken@ranch.test') {
          return Response.json(
            { message: 'Email already in use', issues: [{ path: 'email', message: 'Email already in use' }] },
            { status: 409 },
          );
        }
        const user = testUser(body.role, { id: 'u-9', firstName: body.firstName, lastName: body.lastName, email: body.email });
        users = [...users, user];
        return Response.json({ url: LINK, expiresAt: '2026-12-14T02:00:00.000Z', user }, { status: 201 });
      }
      return new Response('not found', { status: 404 });
    });
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    fireEvent.click(await screen.findByRole('button', { name: 'Add Person' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add Person' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Link' }));
    expect(await within(dialog).findByText('First name is required')).toBeTruthy();
    expect(sent).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText(/^First Name/), { target: { value: 'Sam' } });
    fireEvent.change(within(dialog).getByLabelText(/^Last Name/), { target: { value: 'Ortiz' } });
    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: 'taken@ranch.test' } });
    fireEvent.change(within(dialog).getByLabelText(/^Role/), { target: { value: 'Viewer' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Link' }));
    expect(await within(dialog).findByText('Email already in use')).toBeTruthy();

    fireEvent.change(within(dialog).getByLabelText(/^Email/), { target: { value: 'sam@ranch.test' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create Link' }));
    dialog = await screen.findByRole('dialog', { name: 'Invitation Link' });
    expect(sent.at(-1)).toEqual({ email: 'sam@ranch.test', firstName: 'Sam', lastName: 'Ortiz', role: 'Viewer' });
    expect((within(dialog).getByLabelText('Link') as HTMLInputElement).value).toBe(LINK);
    // No SMTP on the server: nothing is said about e-mail.
    expect(within(dialog).queryByText(/e-mail/i)).toBeNull();
    const qr = within(dialog).getByRole('img', { name: 'QR code of the link for Sam Ortiz' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelector('path')?.getAttribute('d')?.length).toBeGreaterThan(100);
    expect(await screen.findByText('Sam Ortiz')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invitation Link' })).toBeNull());
  });

  it.each([
    [{ sent: true, to: 'sam@ranch.test' }, 'E-mailed to sam@ranch.test.'],
    [
      { sent: false, to: 'sam@ranch.test', error: 'The mail server refused the connection.' },
      'The e-mail to sam@ranch.test was not sent: The mail server refused the connection. The link and the QR code below still work: give them yourself.',
    ],
  ])('[U17] with SMTP on the server, the dialog says whether the link was e-mailed (%o), and still shows it', async (mail, words) => {
    fetchMock.mockImplementation(async (url, init) => {
      if (url === '/api/users' && !init?.method) return Response.json([SELF]);
      if (url === '/api/users/invitations' && init?.method === 'POST') {
        const user = testUser('Staff', { id: 'u-9', firstName: 'Sam', lastName: 'Ortiz', email: 'sam@ranch.test' });
        return Response.json({ url: LINK, expiresAt: '2026-12-14T02:00:00.000Z', user, mail }, { status: 201 });
      }
      return new Response('not found', { status: 404 });
    });
    renderScreen(<UsersScreen goHome={() => {}} />, { data: setup.data(), user: SELF });
    fireEvent.click(await screen.findByRole('button', { name: 'Add Person' }));
    const form = await screen.findByRole('dialog', { name: 'Add Person' });
    fireEvent.change(within(form).getByLabelText(/^First Name/), { target: { value: 'Sam' } });
    fireEvent.change(within(form).getByLabelText(/^Last Name/), { target: { value: 'Ortiz' } });
    fireEvent.change(within(form).getByLabelText(/^Email/), { target: { value: 'sam@ranch.test' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create Link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invitation Link' });
    expect(within(dialog).getByRole(mail.sent ? 'status' : 'alert').textContent).toBe(words);
    expect((within(dialog).getByLabelText('Link') as HTMLInputElement).value).toBe(LINK);
    expect(within(dialog).getByRole('img', { name: 'QR code of the link for Sam Ortiz' })).toBeTruthy();
  });
});
