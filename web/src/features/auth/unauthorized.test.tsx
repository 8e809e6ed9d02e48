// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { ToastProvider, useToast } from '../../ui/Toast.tsx';
import { signInAgain, UNAUTHORIZED_REDIRECT_MS } from './unauthorized.ts';
import { CACHED_USER_KEY } from './user-cache.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Expired({ navigate }: { navigate: (path: string) => void }) {
  const toast = useToast();
  useEffect(() => signInAgain(toast, navigate), [toast, navigate]);
  return null;
}

describe('a logged-out session', () => {
  it('[A7] shows the Unauthorized toast, forgets the cached user and goes to sign in after 500 ms', () => {
    vi.useFakeTimers();
    localStorage.setItem(CACHED_USER_KEY, JSON.stringify({ id: 'u1', email: 'a@ranch.test' }));
    const navigate = vi.fn();
    render(
      <ToastProvider>
        <Expired navigate={navigate} />
      </ToastProvider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('You are logged out. Logging in again...');
    expect(localStorage.getItem(CACHED_USER_KEY)).toBeNull();

    act(() => vi.advanceTimersByTime(UNAUTHORIZED_REDIRECT_MS - 1));
    expect(navigate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(navigate).toHaveBeenCalledWith('/api/login');
  });
});
