import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { AuthProvider } from './AuthProvider.tsx';
import { AuthGate } from './AuthGate.tsx';
import type { AuthState } from './load-user.ts';

afterEach(cleanup);

function renderGate(load: () => Promise<AuthState>) {
  return render(
    <AuthProvider load={load}>
      <AuthGate>
        <p>Signed-in app</p>
      </AuthGate>
    </AuthProvider>,
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
        createdAt: '',
        updatedAt: '',
      },
    }));
    expect(await screen.findByText('Signed-in app')).toBeTruthy();
  });
});
