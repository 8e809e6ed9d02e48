// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lockPageScroll } from './page-lock.ts';

const root = document.documentElement;
const locked = () => root.dataset.pageLocked;
const scrollHeight = (height: number) => Object.defineProperty(root, 'scrollHeight', { configurable: true, value: height });

afterEach(() => {
  delete root.dataset.pageLocked;
  scrollHeight(0);
});

describe('the page scroll lock', () => {
  it('holds while any dialog or drawer holds it: an inner dialog closing leaves the outer one locking', () => {
    const outer = lockPageScroll();
    const inner = lockPageScroll();
    expect(locked()).toBe('');
    inner();
    expect(locked()).toBe('');
    outer();
    expect(locked()).toBeUndefined();
  });

  it('a holder letting go twice lets go once: another holder keeps the lock', () => {
    const first = lockPageScroll();
    const second = lockPageScroll();
    first();
    first();
    expect(locked()).toBe('');
    second();
    expect(locked()).toBeUndefined();
  });

  it('says whether the page could scroll when it was locked (the root keeps its scrollbar room then)', () => {
    scrollHeight(root.clientHeight + 500);
    const release = lockPageScroll();
    expect(locked()).toBe('scrolls');
    release();
    expect(locked()).toBeUndefined();
  });
});

describe('the page scroll lock where layout is watched', () => {
  // A ResizeObserver the test calls back, as the browser does after a frame's layout.
  const callbacks: (() => void)[] = [];
  class FakeResizeObserver {
    constructor(callback: () => void) {
      callbacks.push(callback);
    }
    observe() {}
    disconnect() {}
  }

  async function freshLock(): Promise<typeof lockPageScroll> {
    vi.resetModules();
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const module = await import('./page-lock.ts');
    vi.unstubAllGlobals();
    return module.lockPageScroll;
  }

  afterEach(() => {
    callbacks.length = 0;
  });

  it('keeps the scrollbar room the page had at its last layout, without laying the page out again', async () => {
    const lock = await freshLock();
    scrollHeight(root.clientHeight + 500);
    for (const callback of callbacks) callback(); // a frame laid out a page that scrolls
    // Rows rendered since that frame would change the page's height, but the lock does not
    // read it (that would lay the page out in the tap's task): it keeps what was on screen.
    Object.defineProperty(root, 'scrollHeight', {
      configurable: true,
      get: () => {
        throw new Error('the lock laid the page out');
      },
    });
    const release = lock();
    expect(locked()).toBe('scrolls');
    release();
    expect(locked()).toBeUndefined();
  });

  it('reads the page itself after the window is resized, until the next layout is watched', async () => {
    const lock = await freshLock();
    scrollHeight(0);
    for (const callback of callbacks) callback(); // laid out: the page does not scroll
    scrollHeight(root.clientHeight + 500);
    window.dispatchEvent(new Event('resize')); // a smaller window: now it does
    const release = lock();
    expect(locked()).toBe('scrolls');
    release();
  });
});
