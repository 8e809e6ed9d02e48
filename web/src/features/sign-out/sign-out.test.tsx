// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import * as Y from 'yjs';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { CACHED_USER_KEY, writeCachedUser } from '../auth/user-cache.ts';
import { LANDING_PATH, LOGOUT_EVERYWHERE_PATH, LOGOUT_PATH, unsentText } from './sign-out.ts';
import { useSignOut } from './use-sign-out.tsx';

let data: RanchData;
const navigate = vi.fn<(path: string) => void>();
const fetchFn = vi.fn<typeof fetch>();

beforeEach(async () => {
  localStorage.clear();
  navigate.mockReset();
  fetchFn.mockReset();
  fetchFn.mockResolvedValue(new Response(null, { status: 200 }));
  data = openTestData();
  await data.projection.ready;
  await data.loaded;
});

afterEach(async () => {
  cleanup();
  await data.persistence.clearData().catch(() => {});
  await data.destroy().catch(() => {});
});

/** The user menu's entries, without the menu (UserMenu renders the same hook and dialog). */
function SignOutButtons() {
  const { signOut, dialog } = useSignOut({ fetchFn, navigate });
  return (
    <>
      <button type="button" onClick={() => signOut()}>
        Sign out
      </button>
      <button type="button" onClick={() => signOut({ everywhere: true })}>
        Sign out everywhere
      </button>
      {dialog}
    </>
  );
}

async function addHorseOffline(): Promise<void> {
  await data.writes.lookups.create('breeds', { name: 'Arabian' });
}

/** The server acknowledges everything this device has (MESSAGE_ACK). */
function serverAcknowledgesAll(): void {
  data.tracker.acknowledge(Y.decodeStateVector(Y.encodeStateVector(data.doc)));
}

const deviceCleared = async () => (await data.db.meta.count()) === 0 && localStorage.getItem(CACHED_USER_KEY) === null;

describe('signing out on a shared computer', () => {
  it('[A11] with everything on the server, signs out there first, then clears the device and lands on the landing screen', async () => {
    writeCachedUser(testUser());
    localStorage.setItem('userSettings', '{"darkMode":true}');
    await data.db.meta.put({ key: 'device.owner', value: { userId: 'user-self', name: 'Ada Rider' } });
    renderScreen(<SignOutButtons />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(LANDING_PATH));
    // [A6] A POST (the Origin check guards it), never a GET another site could send.
    expect(fetchFn).toHaveBeenCalledWith(LOGOUT_PATH, expect.objectContaining({ method: 'POST', credentials: 'include' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(localStorage.length).toBe(0);
    expect(await deviceCleared()).toBe(true);
  });

  it('[A11] with a change unsent, asks; Stay signed in keeps everything, Sign out anyway clears it', async () => {
    writeCachedUser(testUser());
    await addHorseOffline();
    renderScreen(<SignOutButtons />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out?' });
    expect(dialog.textContent).toContain('1 change has not reached the server yet.');
    expect(dialog.textContent).toContain('Signing out anyway clears this device, and it will be lost.');
    // A stray Enter stays signed in.
    expect(document.activeElement?.textContent).toBe('Stay signed in');
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fetchFn).not.toHaveBeenCalled();
    expect(localStorage.getItem(CACHED_USER_KEY)).not.toBeNull();
    expect(await data.countUnsent()).toEqual({ records: 1, photos: 0 });

    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out anyway' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(LANDING_PATH));
    expect(await deviceCleared()).toBe(true);
  });

  it('[A11] counts photos too, and lets the person sign out normally once the server has everything', async () => {
    await addHorseOffline();
    await addHorseOffline();
    const photo = await data.photos.addDraft(new ArrayBuffer(8), 'image/jpeg', 8);
    await data.photos.queue(photo);
    renderScreen(<SignOutButtons />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out?' });
    await waitFor(() => expect(dialog.textContent).toContain('2 changes and 1 photo have not reached the server yet.'));
    // The connection comes back: the server acknowledges the changes, the photo is uploaded.
    serverAcknowledgesAll();
    await data.db.photoOutbox.delete(photo);
    await waitFor(() => expect(dialog.textContent).toContain('Everything is now saved on the server.'));
    expect(screen.queryByRole('button', { name: 'Sign out anyway' })).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: 'Sign out' }).at(-1) as HTMLElement);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(LANDING_PATH));
  });

  it('[A11] when the server cannot be reached, stays signed in with everything kept and says so', async () => {
    writeCachedUser(testUser());
    fetchFn.mockRejectedValue(new TypeError('Failed to fetch'));
    renderScreen(<SignOutButtons />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The server could not be reached, so you are still signed in.');
    expect(navigate).not.toHaveBeenCalled();
    expect(localStorage.getItem(CACHED_USER_KEY)).not.toBeNull();
  });

  it('[A11] Sign out everywhere ends every session with a POST, then clears the same way', async () => {
    renderScreen(<SignOutButtons />, { data });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(LANDING_PATH));
    expect(fetchFn).toHaveBeenCalledWith(LOGOUT_EVERYWHERE_PATH, expect.objectContaining({ method: 'POST' }));
  });

  it('[A11] names what is unsent', () => {
    expect(unsentText({ records: 1, photos: 0 })).toBe('1 change');
    expect(unsentText({ records: 3, photos: 2 })).toBe('3 changes and 2 photos');
    expect(unsentText({ records: 0, photos: 1 })).toBe('1 photo');
  });
});
