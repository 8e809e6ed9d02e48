import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { cleanup, render, screen as page } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import type { Role, User } from '../../shared/index.ts';
import { AuthGate } from '../src/features/auth/AuthGate.tsx';
import { AuthProvider } from '../src/features/auth/AuthProvider.tsx';
import type { AuthState } from '../src/features/auth/load-user.ts';
import { DataProvider } from '../src/data/context.tsx';
import type { RanchData } from '../src/data/ranch-data.ts';
import { ToastProvider } from '../src/ui/Toast.tsx';
import { closeTestData, openTestData } from './ranch-data.ts';

export function testUser(role: Role = 'Admin', patch: Partial<User> = {}): User {
  return {
    id: 'user-self',
    firstName: 'Ada',
    lastName: 'Rider',
    email: 'ada@ranch.test',
    role,
    profileImageUrl: null,
    isActive: true,
    createdAt: '2024-03-05T10:00:00.000Z',
    updatedAt: '2024-06-07T10:00:00.000Z',
    ...patch,
  };
}

/**
 * A screen inside the providers the app gives it: toasts, the data layer and a signed-in
 * user. `load` may be replaced to test refreshes of the current user.
 */
export function renderScreen(
  screen: ReactNode,
  { data, user = testUser(), load }: { data: RanchData; user?: User; load?: () => Promise<AuthState> },
) {
  const loadUser = load ?? (async (): Promise<AuthState> => ({ status: 'signed-in', user, offline: false }));
  return render(
    <ToastProvider>
      <DataProvider data={data}>
        <AuthProvider load={loadUser}>
          <AuthGate>{screen}</AuthGate>
        </AuthProvider>
      </DataProvider>
    </ToastProvider>,
  );
}

/**
 * A fresh data layer for every test of the file, handed to `onOpen` before each test and
 * torn down (rendered screens, databases) after it.
 */
export function useTestData(onOpen: (data: RanchData) => void): void {
  let data: RanchData;
  beforeEach(async () => {
    data = openTestData();
    onOpen(data);
    await data.projection.ready;
  });
  afterEach(async () => {
    cleanup();
    await closeTestData(data);
  });
}

/** The table row holding `name` (desk layout). */
export async function rowOf(name: string): Promise<HTMLElement> {
  return (await page.findByText(name)).closest('tr') as HTMLElement;
}

/** `node` as the page of a router at `/`, for screens with links (the app always has one). */
export function inRouter(node: ReactNode): ReactNode {
  const router = createRouter({
    routeTree: createRootRoute({ component: () => node }),
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  return <RouterProvider router={router} />;
}
