import { afterEach, beforeEach, vi } from 'vitest';
import type { User } from '../../shared/index.ts';
import type { RanchData } from '../src/data/ranch-data.ts';
import { useTestData } from './render-screen.tsx';

/**
 * The Users screen's tests: `fetch` is `fetchMock` (the accounts live on the server), a fresh
 * data layer for each test (`data()`), and after each the mock, the clock and the user list
 * the device keeps ([U20]) are reset.
 */
export function useUsersScreenTest() {
  const fetchMock = vi.fn<typeof fetch>();
  let data: RanchData | undefined;
  useTestData((opened) => {
    data = opened;
  });
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  return {
    fetchMock,
    data: (): RanchData => {
      if (!data) throw new Error('The data layer opens before each test');
      return data;
    },
  };
}

/** A server with these accounts: the list, and PUT role (which changes it). */
export function serveUsers(fetchMock: ReturnType<typeof vi.fn<typeof fetch>>, users: User[]): void {
  fetchMock.mockImplementation(async (url, init) => {
    if (url === '/api/users' && !init?.method) return Response.json(users);
    const match = /^\/api\/users\/(.+)\/role$/.exec(String(url));
    if (match && init?.method === 'PUT') {
      const { role } = JSON.parse(String(init.body)) as { role: User['role'] };
      users = users.map((user) => (user.id === match[1] ? { ...user, role } : user));
      return Response.json(users.find((user) => user.id === match[1]));
    }
    return new Response('not found', { status: 404 });
  });
}
