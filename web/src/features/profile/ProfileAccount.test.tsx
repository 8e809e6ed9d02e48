// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { ProfileScreen } from './ProfileScreen.tsx';
import { EMAIL_NEEDS_PASSWORD } from './ProfileDetailsForm.tsx';

let data: RanchData;
const fetchMock = vi.fn<typeof fetch>();

beforeEach(async () => {
  vi.stubGlobal('fetch', fetchMock);
  data = openTestData();
  await data.projection.ready;
});

afterEach(async () => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  await data.persistence.clearData();
  await data.destroy();
});

const card = () => screen.getByRole('region', { name: 'Change Password' });
const cardField = (label: string) => within(card()).getByLabelText(label) as HTMLInputElement;
const refusal = (path: string, message: string) =>
  Response.json({ message: `${path}: ${message}`, issues: [{ path, message }] }, { status: 400 });

function fillPasswords(current: string, next: string, again = next) {
  fireEvent.change(cardField('Current Password'), { target: { value: current } });
  fireEvent.change(cardField('New Password'), { target: { value: next } });
  fireEvent.change(cardField('Confirm New Password'), { target: { value: again } });
  fireEvent.click(within(card()).getByRole('button', { name: 'Change Password' }));
}

describe('Profile: password and e-mail', () => {
  it('[U13] changes the password with PUT /api/auth/password, says the other devices are signed out and empties the form', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    renderScreen(<ProfileScreen />, { data });
    await screen.findByRole('region', { name: 'Change Password' });
    fillPasswords('the old one', 'a brand new password');
    expect(await screen.findByText('Password changed successfully. Your other devices are signed out.')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/password',
      expect.objectContaining({ method: 'PUT', body: '{"currentPassword":"the old one","newPassword":"a brand new password"}' }),
    );
    expect(cardField('Current Password').value).toBe('');
    expect(cardField('New Password').value).toBe('');
  });

  it('[U13] checks the current password is given, the new one’s rules and that it was typed twice alike, before sending', async () => {
    renderScreen(<ProfileScreen />, { data });
    await screen.findByRole('region', { name: 'Change Password' });
    fillPasswords('', 'short', 'other');
    expect(await within(card()).findByText('Current password is required')).toBeTruthy();
    expect(within(card()).getByText('Password must be at least 8 characters')).toBeTruthy();
    fillPasswords('the old one', 'a brand new password', 'a brand new passwort');
    expect(await within(card()).findByText('Passwords do not match')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('[U13] a wrong current password shows on its field and as a toast', async () => {
    fetchMock.mockResolvedValue(refusal('currentPassword', 'Current password is incorrect.'));
    renderScreen(<ProfileScreen />, { data });
    await screen.findByRole('region', { name: 'Change Password' });
    fillPasswords('a guess', 'a brand new password');
    expect(await within(card()).findByText('Current password is incorrect.')).toBeTruthy();
    expect(screen.getByText('Failed to change password. Please try again.')).toBeTruthy();
    expect(cardField('Current Password').getAttribute('aria-invalid')).toBe('true');
  });

  it('[U13] offline, Change Password is disabled with a visible note', async () => {
    data.status.set({ online: false });
    renderScreen(<ProfileScreen />, { data });
    await screen.findByRole('region', { name: 'Change Password' });
    expect(within(card()).getByText('You are offline — changing your password needs a connection.')).toBeTruthy();
    expect((within(card()).getByRole('button', { name: 'Change Password' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('[U15] asks for the current password only when the e-mail is edited, and sends it with the new e-mail', async () => {
    let current = testUser('Staff');
    fetchMock.mockImplementation(async (_url, init) => {
      if (init?.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as { currentPassword?: string; email: string };
        if (body.currentPassword !== 'my password') return refusal('currentPassword', 'Current password is incorrect.');
        current = { ...current, email: body.email };
      }
      return Response.json(current);
    });
    renderScreen(<ProfileScreen />, { data, user: current });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const details = screen.getByRole('region', { name: 'Profile Details' });
    expect(within(details).queryByLabelText('Current Password')).toBeNull();

    fireEvent.change(within(details).getByLabelText('Email Address'), { target: { value: 'Ada.New@Ranch.test' } });
    const password = (await within(details).findByLabelText('Current Password')) as HTMLInputElement;
    fireEvent.click(within(details).getByRole('button', { name: 'Save Changes' }));
    expect(await within(details).findByText(EMAIL_NEEDS_PASSWORD)).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT')).toEqual([]);

    fireEvent.change(password, { target: { value: 'a guess' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Save Changes' }));
    expect(await within(details).findByText('Current password is incorrect.')).toBeTruthy();

    fireEvent.change(password, { target: { value: 'my password' } });
    fireEvent.click(within(details).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Profile updated successfully')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/user',
      expect.objectContaining({
        method: 'PUT',
        body: '{"firstName":"Ada","lastName":"Rider","email":"ada.new@ranch.test","currentPassword":"my password"}',
      }),
    );
  });
});
