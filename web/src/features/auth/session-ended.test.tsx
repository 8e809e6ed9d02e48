// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { OWNER_KEY } from '../../data/data-owner.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { testUser } from '../../../test/render-screen.tsx';
import { KeptChangesNotice } from './KeptChangesNotice.tsx';
import { LandingScreen } from './LandingScreen.tsx';
import { checkSession, useSessionEnded } from './session-ended.ts';
import { CACHED_USER_KEY, writeCachedUser } from './user-cache.ts';

let data: RanchData;
const signInAgain = vi.fn();
const reload = vi.fn();
const fetchFn = vi.fn<typeof fetch>();

beforeEach(async () => {
  localStorage.clear();
  signInAgain.mockReset();
  reload.mockReset();
  fetchFn.mockReset();
  data = openTestData();
  await data.loaded;
  writeCachedUser(testUser());
  await data.db.meta.put({ key: OWNER_KEY, value: { userId: 'user-self', name: 'Ada Rider' } });
});

afterEach(async () => {
  cleanup();
  await data.persistence.clearData().catch(() => {});
  await data.destroy().catch(() => {});
});

/** What SignedInShell shows once the session ended: the landing screen with the kept count, or still the app. */
function Shell({ expired }: { expired: boolean }) {
  const kept = useSessionEnded(expired, { data, signInAgain, reload, fetchFn, retryMs: 20 });
  if (kept) return <LandingScreen notice={<KeptChangesNotice unsent={kept} name="Ada Rider" />} />;
  return <p>the app</p>;
}

describe('a session the server ended', () => {
  it('[A13] with changes unsent: signed out, nothing more sent, the changes kept and counted', async () => {
    await data.writes.lookups.create('breeds', { name: 'Arabian' });
    await data.writes.lookups.create('colors', { name: 'Bay' });
    fetchFn.mockResolvedValue(new Response('Unauthorized', { status: 401 }));
    const stopSync = vi.spyOn(data, 'stopSync');
    const { rerender } = render(<Shell expired={false} />);
    expect(fetchFn).not.toHaveBeenCalled();
    rerender(<Shell expired />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'You are signed out.2 changes could not be sent. They are kept on this device until Ada Rider signs in again.',
    );
    expect(screen.getByRole('button', { name: 'Sign In to Continue' })).toBeTruthy();
    expect(fetchFn).toHaveBeenCalledWith('/api/auth/user', expect.objectContaining({ credentials: 'include' }));
    expect(stopSync).toHaveBeenCalled();
    expect(localStorage.getItem(CACHED_USER_KEY)).toBeNull();
    // Kept for Ada: the document, its owner, the waiting state.
    expect(await data.countUnsent()).toEqual({ records: 2, photos: 0 });
    expect(await data.db.meta.get(OWNER_KEY)).toBeDefined();
    expect(signInAgain).not.toHaveBeenCalled();
  });

  it('[A13] [A7] with nothing unsent: the device is cleared as a sign-out would, then sign in again', async () => {
    fetchFn.mockResolvedValue(new Response('Unauthorized', { status: 401 }));
    render(<Shell expired />);
    await waitFor(() => expect(signInAgain).toHaveBeenCalled());
    expect(await data.db.meta.get(OWNER_KEY)).toBeUndefined();
    expect(localStorage.getItem(CACHED_USER_KEY)).toBeNull();
    expect(screen.getByText('the app')).toBeTruthy();
  });

  it('[A13] a socket closed while the session still stands starts the page again', async () => {
    await data.writes.lookups.create('breeds', { name: 'Arabian' });
    fetchFn.mockResolvedValue(Response.json(testUser()));
    render(<Shell expired />);
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(signInAgain).not.toHaveBeenCalled();
    expect(localStorage.getItem(CACHED_USER_KEY)).not.toBeNull();
  });

  it('[A13] asks again while the server cannot be reached, and decides on its answer', async () => {
    await data.writes.lookups.create('breeds', { name: 'Arabian' });
    fetchFn.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    fetchFn.mockResolvedValueOnce(new Response('Bad Gateway', { status: 502 }));
    fetchFn.mockResolvedValue(new Response('Unauthorized', { status: 401 }));
    render(<Shell expired />);
    expect((await screen.findByRole('alert')).textContent).toContain('1 change could not be sent.');
    expect(fetchFn).toHaveBeenCalledTimes(3);
  });

  it('[A13] tells a refused session from a server that cannot be reached', async () => {
    fetchFn.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    expect(await checkSession(fetchFn)).toBe('unreachable');
    fetchFn.mockResolvedValueOnce(new Response('Bad Gateway', { status: 502 }));
    expect(await checkSession(fetchFn)).toBe('unreachable');
    fetchFn.mockResolvedValueOnce(new Response('Unauthorized', { status: 401 }));
    expect(await checkSession(fetchFn)).toBe('signed-out');
  });
});
