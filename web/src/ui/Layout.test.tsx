// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import type { User } from '../../../shared/index.ts';
import { addNoticeBatch } from '../data/compensation-notices.ts';
import { DataProvider } from '../data/context.tsx';
import type { RanchData } from '../data/ranch-data.ts';
import { openTestData } from '../../test/ranch-data.ts';
import { testUser } from '../../test/render-screen.tsx';
import { Layout } from './Layout.tsx';
import { SIDEBAR_COLLAPSED_KEY } from './sidebar-state.ts';
import { ToastProvider } from './Toast.tsx';

let data: RanchData;
beforeEach(() => {
  localStorage.clear();
  data = openTestData();
});
afterEach(async () => {
  cleanup();
  await data.persistence.clearData();
  await data.destroy();
});

async function renderLayout(user: User, path = '/') {
  const root = createRootRoute({
    component: () => (
      <Layout user={user}>
        <Outlet />
      </Layout>
    ),
  });
  const paths = ['/', '/horses', '/owners', '/buyers', '/sales', '/payments', '/admin', '/users', '/profile', '/settings'];
  const router = createRouter({
    routeTree: root.addChildren(paths.map((p) => createRoute({ getParentRoute: () => root, path: p, component: () => <p>screen {p}</p> }))),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  render(
    <ToastProvider>
      <DataProvider data={data}>
        <RouterProvider router={router} />
      </DataProvider>
    </ToastProvider>,
  );
  await screen.findByText(`screen ${path}`);
  return router;
}

describe('layout', () => {
  it('[G4] [R4] links every screen; Users only for an Admin', async () => {
    await renderLayout(testUser('Admin'));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Horses', 'Suppliers', 'Buyers', 'Sales', 'Admin', 'Users']);
    expect(within(nav).getByRole('link', { name: 'Suppliers' }).getAttribute('href')).toBe('/owners');
    cleanup();
    await renderLayout(testUser('Staff'));
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Users' })).toBeNull();
  });

  it('[B10] the Payments tab (/payments) is the Sales link’s page', async () => {
    await renderLayout(testUser('Staff'), '/payments');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Sales' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Horses' }).getAttribute('aria-current')).toBeNull();
    expect(screen.getByRole('banner').textContent).toContain('Sales & Payments');
  });

  it('[G5] [G6] shows the page title, and the user with name, role and initials', async () => {
    await renderLayout(testUser('Viewer'), '/owners');
    expect(screen.getByRole('banner').textContent).toContain('Suppliers');
    const menu = screen.getByRole('button', { name: 'User menu: Ada Rider, Viewer' });
    // The initials are drawn by CSS from data-initials, so the button's text is its name and role alone.
    expect(menu.querySelector('[data-initials]')?.getAttribute('data-initials')).toBe('AR');
    fireEvent.click(menu);
    const entries = screen.getByRole('menu', { name: 'My Account' });
    expect(within(entries).getByText('My Account')).toBeTruthy();
    expect(within(entries).getByRole('menuitem', { name: 'Profile' }).getAttribute('href')).toBe('/profile');
    expect(within(entries).getByRole('menuitem', { name: 'Settings' }).getAttribute('href')).toBe('/settings');
    expect(within(entries).getByRole('menuitem', { name: 'Sign out' }).getAttribute('href')).toBe('/api/logout');
    expect(
      within(entries)
        .getAllByRole('menuitem')
        .map((entry) => entry.textContent),
    ).toEqual(['Profile', 'Settings', 'Sign out', 'Sign out everywhere']);
    expect(document.activeElement?.textContent).toBe('Profile');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Settings');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement?.textContent).toBe('Sign out everywhere');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('[U14] Sign out everywhere, under Sign out, ends every session of the user with a POST', async () => {
    // The answer never comes: what follows it (clearing the device) is the sign-out's own test.
    const fetchMock = vi.fn<typeof fetch>(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetchMock);
    try {
      await renderLayout(testUser('Staff'));
      fireEvent.click(screen.getByRole('button', { name: 'User menu: Ada Rider, Staff' }));
      fireEvent.click(screen.getByRole('menuitem', { name: 'Sign out everywhere' }));
      expect(screen.queryByRole('menu')).toBeNull();
      await vi.waitFor(() =>
        expect(fetchMock).toHaveBeenCalledWith('/api/auth/logout-everywhere', expect.objectContaining({ method: 'POST' })),
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("[G6] [R2] falls back to the e-mail or 'User', 'U' and role Staff", async () => {
    await renderLayout(testUser('Admin', { firstName: null, lastName: null, email: '', role: undefined as unknown as User['role'] }));
    const menu = screen.getByRole('button', { name: 'User menu: User, Staff' });
    expect(menu.textContent).toContain('U');
  });

  it('[G4] the Collapse toggle hides the labels and is remembered', async () => {
    await renderLayout(testUser('Admin'));
    const toggle = screen.getByRole('button', { name: 'Collapse' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    act(() => toggle.click());
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
    // Labels stay for assistive technology (sr-only), so links keep their names.
    expect(
      within(screen.getByRole('navigation', { name: 'Main' }))
        .getByRole('link', { name: 'Horses' })
        .getAttribute('title'),
    ).toBe('Horses');
    cleanup();
    await renderLayout(testUser('Admin'));
    expect(screen.getByRole('button', { name: 'Collapse' }).getAttribute('aria-pressed')).toBe('true');
  });

  it("[G4] a phone's closed drawer makes its links once the page is idle, or at once when opened", async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    try {
      await renderLayout(testUser('Admin'));
      // Out of sight in the closed drawer, so not made in the start's first frame…
      expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
      // …but made once the page is idle, before a finger reaches for the menu.
      const nav = await screen.findByRole('navigation', { name: 'Main' });
      expect(within(nav).getAllByRole('link')).toHaveLength(7);
      cleanup();
      // Opened before the page was idle: the links are there with the open drawer.
      await renderLayout(testUser('Staff'));
      expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
      fireEvent.click(within(screen.getByRole('navigation', { name: 'Quick navigation' })).getByRole('button', { name: 'More' }));
      expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Horses' })).toBeTruthy();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("[G5] has a bell whose dot shows only when something new arrived, and the phone's More opens the menu", async () => {
    await renderLayout(testUser('Admin'));
    // Nothing is due and no notice arrived: no dot at start.
    const bell = screen.getByRole('button', { name: 'Notifications' });
    expect(screen.queryByTestId('unread-dot')).toBeNull();
    fireEvent.click(bell);
    expect(screen.getByText('No new notifications')).toBeTruthy();
    fireEvent.click(bell);
    act(() =>
      addNoticeBatch(data.notices, [{ collection: 'breeds', id: 'b1', action: 'removed', fields: {}, reason: 'Name is required' }]),
    );
    expect(await screen.findByTestId('unread-dot')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Notifications, unread' }));
    expect(screen.queryByTestId('unread-dot')).toBeNull();
    const open = screen.getByRole('button', { name: 'More' });
    fireEvent.click(open);
    expect(open.getAttribute('aria-expanded')).toBe('true');
  });

  it("[G8] Escape closes a phone's open drawer and gives the focus back to More", async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    try {
      await renderLayout(testUser('Staff'));
      const more = within(screen.getByRole('navigation', { name: 'Quick navigation' })).getByRole('button', { name: 'More' });
      act(() => more.focus());
      fireEvent.click(more);
      expect(more.getAttribute('aria-expanded')).toBe('true');
      const horses = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Horses' });
      act(() => horses.focus());
      fireEvent.keyDown(horses, { key: 'Escape' });
      expect(more.getAttribute('aria-expanded')).toBe('false');
      expect(document.activeElement).toBe(more);
      // Opened and left with the focus on More, Escape closes it too.
      fireEvent.click(more);
      expect(more.getAttribute('aria-expanded')).toBe('true');
      fireEvent.keyDown(more, { key: 'Escape' });
      expect(more.getAttribute('aria-expanded')).toBe('false');
      expect(document.activeElement).toBe(more);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("[G8] a phone's bottom navigation has the main screens and More, the current one marked", async () => {
    const router = await renderLayout(testUser('Staff'), '/horses');
    const bottom = screen.getByRole('navigation', { name: 'Quick navigation' });
    const items = () => [...bottom.querySelectorAll('a, button')];
    expect(items().map((item) => item.textContent)).toEqual(['Dashboard', 'Horses', 'Buyers', 'Sales', 'More']);
    const current = () => items().filter((item) => item.getAttribute('aria-current') === 'page');
    expect(current().map((item) => item.textContent)).toEqual(['Horses']);
    fireEvent.click(within(bottom).getByRole('link', { name: 'Sales' }));
    await screen.findByText('screen /sales');
    expect(current().map((item) => item.textContent)).toEqual(['Sales']);
    // A screen that is not in the bar: More is marked (a bar under it), and no link is current.
    await router.navigate({ to: '/settings' });
    await screen.findByText('screen /settings');
    expect(current()).toEqual([]);
    expect(within(bottom).getByRole('button', { name: 'More' }).className).toContain('dock-active');
  });

  it('[G8] names the screen once: the header on phones, the heading on desks', async () => {
    await renderLayout(testUser('Staff'), '/horses');
    const title = within(screen.getByRole('banner')).getByText('Horse Inventory');
    expect(title.className).toContain('md:hidden');
  });
});
