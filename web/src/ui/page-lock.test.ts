import { afterEach, describe, expect, it } from 'vitest';
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
