import { expect } from 'vitest';
import type { connectAckedDevice } from './sync-client.ts';

/**
 * Until the server has committed (and compensated) everything the device wrote: connected,
 * synced, and its own clock acknowledged. A compensation and its notices reach the sender
 * before the acknowledgement, so the device holds them by then. Deletions add no clock, so
 * there is nothing to wait for after one: poll for its outcome instead.
 */
export async function untilSaved(device: ReturnType<typeof connectAckedDevice>): Promise<void> {
  await expect
    .poll(() => device.provider.wsconnected && device.provider.synced && device.ackedClock() >= device.localClock(), { timeout: 10_000 })
    .toBe(true);
}
