// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { DataProvider } from '../../data/context.tsx';
import { OWNER_KEY } from '../../data/data-owner.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { openTestData } from '../../../test/ranch-data.ts';
import { AuthProvider } from './AuthProvider.tsx';
import { AuthGate } from './AuthGate.tsx';
import type { AuthState } from './load-user.ts';

let data: RanchData;
beforeEach(() => {
  data = openTestData();
});
afterEach(async () => {
  cleanup();
  await data.persistence.clearData();
  await data.destroy();
});

function renderGate(load: () => Promise<AuthState>) {
  return render(
    <DataProvider data={data}>
      <AuthProvider load={load}>
        <AuthGate>
          <p>Signed-in app</p>
        </AuthGate>
      </AuthProvider>
    </DataProvider>,
  );
}

describe('auth gate', () => {
  it('[A2] renders nothing while the user is loading', () => {
    const { container } = renderGate(() => new Promise<AuthState>(() => {}));
    expect(container.innerHTML).toBe('');
  });

  it('[A2] shows the landing screen to a visitor who is not signed in', async () => {
    renderGate(async () => ({ status: 'signed-out' }));
    expect(await screen.findByRole('heading', { name: 'Ranch' })).toBeTruthy();
    expect(screen.getByText('Horse Ranch Management System')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign In to Continue' })).toBeTruthy();
    expect(screen.queryByText('Signed-in app')).toBeNull();
  });

  it('[A13] a later start, signed out, still says whose unsent changes the device keeps', async () => {
    await data.loaded;
    await data.db.meta.put({ key: OWNER_KEY, value: { userId: 'user-ann', name: 'Ann Lee' } });
    await data.writes.lookups.create('breeds', { name: 'Arabian' });
    renderGate(async () => ({ status: 'signed-out' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You are signed out.1 change could not be sent. It is kept on this device until Ann Lee signs in again.',
    );
    expect(screen.getByRole('button', { name: 'Sign In to Continue' })).toBeTruthy();
  });

  it('[A3] shows the app to a signed-in user', async () => {
    renderGate(async () => ({
      status: 'signed-in',
      offline: false,
      user: {
        id: 'u1',
        firstName: null,
        lastName: null,
        email: 'a@ranch.test',
        role: 'Admin',
        profileImageUrl: null,
        isActive: true,
        createdAt: '',
        updatedAt: '',
      },
    }));
    expect(await screen.findByText('Signed-in app')).toBeTruthy();
  });
});
