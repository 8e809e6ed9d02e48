// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { RanchData } from '../../data/ranch-data.ts';
import { DataProvider } from '../../data/context.tsx';
import { ToastProvider } from '../../ui/Toast.tsx';
import { openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { AuthProvider } from '../auth/AuthProvider.tsx';
import type { AuthState } from '../auth/load-user.ts';
import { ProfileScreen } from './ProfileScreen.tsx';

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

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
// Fields are disabled through their fieldset, which the element's own property does not show.
const disabled = (element: HTMLElement) => element.matches(':disabled');

describe('Profile screen', () => {
  it('[U7] shows the overview and read-only details until Edit Profile', async () => {
    renderScreen(<ProfileScreen />, { data, user: testUser('Admin') });
    const overview = await screen.findByRole('region', { name: 'Profile Overview' });
    expect(within(overview).getByText('Ada Rider')).toBeTruthy();
    expect(within(overview).getByText('ada@ranch.test')).toBeTruthy();
    expect(within(overview).getByText('Admin').className).toContain('badge-primary');
    expect(within(overview).getByText('AR')).toBeTruthy();
    expect(within(overview).getByText('Member since')).toBeTruthy();
    expect(within(overview).getByText(new Date('2024-03-05T10:00:00.000Z').toLocaleDateString())).toBeTruthy();
    expect(within(overview).getByText('Last updated')).toBeTruthy();

    expect(disabled(field('First Name'))).toBe(true);
    expect(disabled(field('Email Address'))).toBe(true);
    expect(disabled(field('Role'))).toBe(true);
    expect(screen.getByText('Contact an administrator to change your role')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(disabled(field('First Name'))).toBe(false);
    expect(disabled(field('Role'))).toBe(true);
  });

  it('[U7] falls back to the e-mail, U initials and N/A dates', async () => {
    renderScreen(<ProfileScreen />, { data, user: testUser('Viewer', { firstName: null, lastName: null, createdAt: '', updatedAt: '' }) });
    const overview = await screen.findByRole('region', { name: 'Profile Overview' });
    expect(within(overview).getAllByText('ada@ranch.test')).toHaveLength(2);
    expect(within(overview).getByText('U')).toBeTruthy();
    expect(within(overview).getAllByText('N/A')).toHaveLength(2);
    expect(within(overview).getByText('Viewer').className).toContain('badge-ghost');
  });

  it('[U7] [U8] validates with the profile messages and Cancel restores the stored values', async () => {
    renderScreen(<ProfileScreen />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    fireEvent.change(field('First Name'), { target: { value: ' ' } });
    fireEvent.change(field('Last Name'), { target: { value: '' } });
    fireEvent.change(field('Email Address'), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('First name is required')).toBeTruthy();
    expect(screen.getByText('Last name is required')).toBeTruthy();
    expect(screen.getByText('Please enter a valid email address')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(field('First Name').value).toBe('Ada'));
    expect(disabled(field('First Name'))).toBe(true);
  });

  it('[U8] saves with PUT /api/auth/user, refreshes the current user and toasts', async () => {
    let current = testUser('Staff');
    const load = vi.fn(async (): Promise<AuthState> => ({ status: 'signed-in', user: current, offline: false }));
    let release: () => void = () => {};
    fetchMock.mockImplementation(
      () =>
        new Promise((resolve) => {
          release = () => {
            current = { ...current, firstName: 'Grace' };
            resolve(Response.json(current));
          };
        }),
    );
    renderScreen(<ProfileScreen />, { data, load });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    fireEvent.change(field('First Name'), { target: { value: 'Grace' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('button', { name: 'Saving...' })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/user',
      expect.objectContaining({ method: 'PUT', body: '{"firstName":"Grace","lastName":"Rider","email":"ada@ranch.test"}' }),
    );
    release();
    expect(await screen.findByText('Profile updated successfully')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    expect(await within(screen.getByRole('region', { name: 'Profile Overview' })).findByText('Grace Rider')).toBeTruthy();
    expect(disabled(field('First Name'))).toBe(true);
  });

  it('[U8] a failed save says so and stays editable', async () => {
    fetchMock.mockResolvedValue(new Response('boom', { status: 500 }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderScreen(<ProfileScreen />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update profile. Please try again.')).toBeTruthy();
    expect(disabled(field('First Name'))).toBe(false);
  });

  it('[U9] offline, Save is disabled with a visible note', async () => {
    data.status.set({ online: false });
    renderScreen(<ProfileScreen />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    expect(screen.getByText('You are offline — profile changes need a connection.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save Changes' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('[U7] shows a skeleton while the user is loading', () => {
    render(
      <ToastProvider>
        <DataProvider data={data}>
          <AuthProvider load={() => new Promise<AuthState>(() => {})}>
            <ProfileScreen />
          </AuthProvider>
        </DataProvider>
      </ToastProvider>,
    );
    expect(screen.getByLabelText('Loading profile')).toBeTruthy();
  });
});
