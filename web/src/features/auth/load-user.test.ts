// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../../../shared/index.ts';
import { AUTH_USER_PATH, loadUser } from './load-user.ts';
import { CACHED_USER_KEY, readCachedUser, writeCachedUser } from './user-cache.ts';

const USER: User = {
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Rider',
  email: 'ada@ranch.test',
  role: 'Staff',
  profileImageUrl: null,
  isActive: true,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
};

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('loading the signed-in user', () => {
  it('[A3] asks the server with credentials and caches the user', async () => {
    fetchMock.mockResolvedValue(Response.json(USER));
    expect(await loadUser()).toEqual({ status: 'signed-in', user: USER, offline: false });
    expect(fetchMock).toHaveBeenCalledWith(AUTH_USER_PATH, expect.objectContaining({ credentials: 'include' }));
    expect(readCachedUser()).toEqual(USER);
  });

  it('[A7] a 401 signs the device out and forgets the cached user', async () => {
    writeCachedUser(USER);
    fetchMock.mockResolvedValue(new Response('Unauthorized', { status: 401 }));
    expect(await loadUser()).toEqual({ status: 'signed-out' });
    expect(localStorage.getItem(CACHED_USER_KEY)).toBeNull();
  });

  it('[O3] offline, it opens on the cached user', async () => {
    writeCachedUser(USER);
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await loadUser()).toEqual({ status: 'signed-in', user: USER, offline: true });
  });

  it('[O3] [A2] offline without a cached user, it shows the landing screen', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    expect(await loadUser()).toEqual({ status: 'signed-out' });
  });
});
