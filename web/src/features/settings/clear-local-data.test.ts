import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearLocalData, DEVICE_CLEARED_CHANNEL, reloadWhenClearedElsewhere } from './clear-local-data.ts';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('clearing the device', () => {
  it('[V7] [A11] the other tabs reload once a tab has cleared the device, so they show nothing of it', async () => {
    let reloads = 0;
    stops.push(reloadWhenClearedElsewhere(() => (reloads += 1), 'other tab'));
    const data = { clearDocument: vi.fn(async () => {}), db: { delete: vi.fn(async () => {}) } };
    await clearLocalData(data, { tab: 'this tab' });
    expect(data.clearDocument).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(reloads).toBe(1));
  });

  it('[V7] the tab that cleared does not reload itself (it says what happened)', async () => {
    let reloads = 0;
    stops.push(reloadWhenClearedElsewhere(() => (reloads += 1), 'this tab'));
    let heard = 0;
    const listener = new BroadcastChannel(DEVICE_CLEARED_CHANNEL);
    listener.onmessage = () => (heard += 1);
    stops.push(() => listener.close());
    await clearLocalData({ clearDocument: async () => {}, db: { delete: async () => {} } }, { tab: 'this tab' });
    await vi.waitFor(() => expect(heard).toBe(1));
    expect(reloads).toBe(0);
  });
});
