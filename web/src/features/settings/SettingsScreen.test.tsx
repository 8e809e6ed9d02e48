// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import * as Y from 'yjs';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { CACHED_USER_KEY } from '../auth/user-cache.ts';
import { LANDING_PATH, LOGOUT_EVERYWHERE_PATH } from '../sign-out/sign-out.ts';
import { PrivacyCard } from './PrivacyCard.tsx';
import { SettingsScreen } from './SettingsScreen.tsx';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from './user-settings.ts';

let data: RanchData;

beforeEach(async () => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
  document.documentElement.className = '';
  data = openTestData();
  await data.projection.ready;
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await data.persistence.clearData().catch(() => {});
  await data.destroy().catch(() => {});
});

const stored = () => JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null');
const toggle = (name: string) => screen.getByRole('switch', { name: new RegExp(`^${name}`) }) as HTMLInputElement;

function stubNotification(permission: NotificationPermission, answer: NotificationPermission = permission) {
  const requestPermission = vi.fn(async () => answer);
  vi.stubGlobal(
    'Notification',
    Object.assign(function Notification() {}, { permission, requestPermission }),
  );
  return requestPermission;
}

describe('Settings screen', () => {
  it('[V1] [V2] shows the four cards with the default settings and the role', async () => {
    stubNotification('default');
    renderScreen(<SettingsScreen />, { data, user: testUser('Viewer') });
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
    for (const card of ['Notifications', 'Appearance', 'Privacy & Security', 'Data Management']) {
      expect(screen.getByRole('heading', { name: card })).toBeTruthy();
    }
    expect(toggle('Browser Notifications').checked).toBe(false);
    expect(toggle('Maintenance Alerts').checked).toBe(true);
    // Ranch sends no e-mail and no reports: no switch pretends it does.
    expect(screen.queryByRole('switch', { name: /^Email Notifications/ })).toBeNull();
    expect(screen.queryByRole('switch', { name: /^Weekly Reports/ })).toBeNull();
    expect(toggle('Dark Mode').checked).toBe(false);
    expect(toggle('Compact View').checked).toBe(false);
    expect(screen.queryByText(/future update/)).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Privacy & Security' })).getByText('Viewer')).toBeTruthy();
  });

  it('[V5] Dark Mode and Compact View apply at once and are stored under userSettings', async () => {
    stubNotification('default');
    renderScreen(<SettingsScreen />, { data });
    fireEvent.click(await screen.findByRole('switch', { name: /^Dark Mode/ }));
    expect(document.documentElement.getAttribute('data-theme')).toBe('ranch-dark');
    fireEvent.click(toggle('Compact View'));
    expect(document.documentElement.classList.contains('compact')).toBe(true);
    expect(stored()).toEqual({ ...DEFAULT_SETTINGS, darkMode: true, compactView: true });
    fireEvent.click(toggle('Dark Mode'));
    expect(document.documentElement.getAttribute('data-theme')).toBe('ranch');
  });

  it('[V3] Browser Notifications: granted turns it on, refused stays off, blocked and missing show badges', async () => {
    let request = stubNotification('default', 'granted');
    renderScreen(<SettingsScreen />, { data });
    fireEvent.click(await screen.findByRole('switch', { name: /^Browser Notifications/ }));
    expect(await screen.findByText('Notifications Enabled')).toBeTruthy();
    expect(request).toHaveBeenCalled();
    expect(toggle('Browser Notifications').checked).toBe(true);
    cleanup();

    request = stubNotification('default', 'denied');
    localStorage.clear();
    renderScreen(<SettingsScreen />, { data });
    fireEvent.click(await screen.findByRole('switch', { name: /^Browser Notifications/ }));
    expect(await screen.findByText('Permission Denied')).toBeTruthy();
    expect(screen.getByText('Please enable notifications in your browser settings.')).toBeTruthy();
    expect(toggle('Browser Notifications').checked).toBe(false);
    expect(screen.getByText('Blocked')).toBeTruthy();
    cleanup();

    vi.unstubAllGlobals();
    renderScreen(<SettingsScreen />, { data });
    expect(await screen.findByText('Not Supported')).toBeTruthy();
    fireEvent.click(toggle('Browser Notifications'));
    expect(await screen.findByText("Your browser doesn't support notifications.")).toBeTruthy();
  });

  it('[V4] Save All Settings shows its toast', async () => {
    stubNotification('default');
    renderScreen(<SettingsScreen />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Save All Settings' }));
    expect(await screen.findByText('Settings Saved')).toBeTruthy();
    expect(screen.getByText('Your preferences have been saved successfully.')).toBeTruthy();
    expect(stored()).toEqual(DEFAULT_SETTINGS);
  });

  it('[V6] Log Out All Devices ends every session, clears this device and lands on the landing screen', async () => {
    await data.loaded;
    const fetchFn = vi.fn<typeof fetch>(async () => new Response(null, { status: 200 }));
    const navigate = vi.fn<(path: string) => void>();
    data.lookups.create('breeds', { name: 'Arabian' });
    // Everything is on the server: nothing to ask about.
    data.tracker.acknowledge(Y.decodeStateVector(Y.encodeStateVector(data.doc)));
    localStorage.setItem(CACHED_USER_KEY, '{}');
    renderScreen(<PrivacyCard role={testUser('Staff').role} signOutWays={{ fetchFn, navigate }} />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Log Out All Devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure you want to log out from all devices?' });
    expect(within(dialog).getByText(/Every phone and computer signed in as you is signed out/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log Out All Devices' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(LANDING_PATH));
    expect(fetchFn).toHaveBeenCalledWith(LOGOUT_EVERYWHERE_PATH, expect.objectContaining({ method: 'POST' }));
    expect(localStorage.getItem(CACHED_USER_KEY)).toBeNull();
    expect(await data.db.breeds.count()).toBe(0);
    expect(screen.queryByText('Not Implemented')).toBeNull();
  });

  it('[V6] Log Out All Devices keeps everything when the server cannot be reached', async () => {
    await data.loaded;
    const fetchFn = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const navigate = vi.fn<(path: string) => void>();
    data.tracker.acknowledge(Y.decodeStateVector(Y.encodeStateVector(data.doc)));
    renderScreen(<PrivacyCard role={testUser('Staff').role} signOutWays={{ fetchFn, navigate }} />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Log Out All Devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure you want to log out from all devices?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log Out All Devices' }));
    expect(await screen.findByText('Sign out failed')).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('[V7] Clear Local Data warns about unsaved records and queued photos, then clears storage', async () => {
    stubNotification('default');
    data.lookups.create('breeds', { name: 'Arabian' });
    await data.photos.queue(await data.photos.addDraft(new ArrayBuffer(8), 'image/jpeg', 8));
    localStorage.setItem('ranch.user', '{}');
    renderScreen(<SettingsScreen />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Clear Local Data' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Are you sure you want to clear all local data? This action cannot be undone.',
    });
    expect(within(dialog).getByRole('alert').textContent).toContain('1 record with changes and 1 photo have not reached the server yet');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear Local Data' }));
    expect(await screen.findByText('Data Cleared')).toBeTruthy();
    expect(screen.getByText('All local data has been cleared. Please refresh the page.')).toBeTruthy();
    expect(localStorage.length).toBe(0);
    await waitFor(async () => expect(await data.db.breeds.count()).toBe(0));
    expect(await data.db.photoOutbox.count()).toBe(0);
  });

  it('[V8] Data Management says how many records from other apps could not be shown', async () => {
    stubNotification('default');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderScreen(<SettingsScreen />, { data });
    const card = await screen.findByRole('region', { name: 'Data Management' });
    expect(within(card).queryByText(/could not be shown/)).toBeNull();
    // Another app put a string where an owner belongs, and a breed with no name.
    data.doc.transact(() => {
      data.doc.getMap('owners').set('0190c000-0000-7000-8000-000000000001', 'not an owner');
      data.doc.getMap('breeds').set('0190c000-0000-7000-8000-000000000002', new Y.Map());
    });
    expect(await within(card).findByText('2 records from other apps could not be shown')).toBeTruthy();
  });
});
