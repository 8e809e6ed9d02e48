// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askPersistentStorage } from './persist-storage.ts';

describe('askPersistentStorage', () => {
  afterEach(() => localStorage.clear());

  it('asks once, and not at all when already persisted or unsupported', async () => {
    const storage = { persisted: vi.fn(async () => false), persist: vi.fn(async () => true) } as unknown as StorageManager;
    expect(await askPersistentStorage(storage)).toBe(true);
    expect(await askPersistentStorage(storage)).toBe(false);
    expect(storage.persist).toHaveBeenCalledTimes(1);
    const persisted = { persisted: vi.fn(async () => true), persist: vi.fn() } as unknown as StorageManager;
    expect(await askPersistentStorage(persisted)).toBe(true);
    expect(persisted.persist).not.toHaveBeenCalled();
    expect(await askPersistentStorage(undefined)).toBeNull();
  });
});
