// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { User } from '../../../../shared/index.ts';
import { claimData, OWNER_KEY, readOwner } from '../../data/data-owner.ts';
import { openRanchData, type RanchData } from '../../data/ranch-data.ts';
import { renderScreen, testUser } from '../../../test/render-screen.tsx';
import { HeldChangesScreen } from './HeldChangesScreen.tsx';
import { useDataOwnerGate } from './use-data-owner.ts';
import { readCachedUser } from './user-cache.ts';

let data: RanchData;
let counter = 0;
const reload = vi.fn();
const ANN = { userId: 'user-ann', name: 'Ann Lee' };
const bo = testUser('Staff', { id: 'user-bo', firstName: 'Bo', lastName: 'Hart', email: 'bo@ranch.test' });

beforeEach(async () => {
  localStorage.clear();
  reload.mockReset();
  counter += 1;
  // A port nothing listens on: a socket that opens is seen in data.sync, and sends nothing.
  data = openRanchData({ docDbName: `owner-doc-${counter}`, readDbName: `owner-read-${counter}`, syncUrl: 'ws://127.0.0.1:9/api/sync' });
  await data.loaded;
});

afterEach(async () => {
  cleanup();
  await data.persistence.clearData().catch(() => {});
  await data.destroy().catch(() => {});
});

/** Ann used this device: her data, with `changes` breeds added and never sent. */
async function annsDevice(changes: number): Promise<void> {
  await data.db.meta.put({ key: OWNER_KEY, value: ANN });
  for (let i = 0; i < changes; i++) await data.writes.lookups.create('breeds', { name: `Breed ${i}` });
}

function Shell({ user }: { user: User }) {
  const gate = useDataOwnerGate(user, reload);
  if (gate.kind === 'held') return <HeldChangesScreen user={user} owner={gate.owner} unsent={gate.unsent} reload={reload} />;
  return <p>gate {gate.kind}</p>;
}

describe('whose data is on this device', () => {
  it('[A12] a new device (or one from before owners were kept) becomes the user’s, and syncs', async () => {
    expect(await claimData(data.db, ANN, async () => ({ records: 5, photos: 0 }))).toEqual({ kind: 'syncing' });
    expect(await readOwner(data.db)).toEqual(ANN);
    expect(await claimData(data.db, { ...ANN, name: 'Ann Lee-Hart' }, async () => ({ records: 5, photos: 0 }))).toEqual({
      kind: 'syncing',
    });
    expect(await readOwner(data.db)).toEqual({ ...ANN, name: 'Ann Lee-Hart' });
  });

  it('[A12] never opens the socket or sends photos for another user while the owner’s changes are unsent', async () => {
    await annsDevice(2);
    const photo = await data.photos.addDraft(new ArrayBuffer(8), 'image/jpeg', 8);
    await data.photos.queue(photo);
    const outcome = await data.connect({ userId: bo.id, name: 'Bo Hart' });
    expect(outcome).toEqual({ kind: 'held', owner: ANN, unsent: { records: 2, photos: 1 } });
    expect(data.sync).toBeNull();
    expect(await data.photos.countWaiting()).toBe(1);
    expect(await readOwner(data.db)).toEqual(ANN);
    // Ann herself syncs them.
    expect(await data.connect({ userId: ANN.userId, name: ANN.name })).toEqual({ kind: 'syncing' });
    expect(data.sync?.provider.url).toContain('user=user-ann');
  });

  it('[A12] tells the new user whose changes are kept, and sends nothing', async () => {
    await annsDevice(3);
    renderScreen(<Shell user={bo} />, { data, user: bo });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'This device holds 3 changes by Ann Lee that were never sent. They are kept until Ann Lee signs in again, or you can discard them.',
    );
    const signOut = screen.getByRole('button', { name: 'Sign out' });
    expect(signOut.closest('form')?.getAttribute('method')).toBe('post');
    expect(signOut.closest('form')?.getAttribute('action')).toBe('/api/logout');
    expect(data.sync).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });

  it('[A12] Discard them clears the device after a confirm and starts fresh for the new user', async () => {
    await annsDevice(1);
    renderScreen(<Shell user={bo} />, { data, user: bo });
    expect((await screen.findByRole('alert')).textContent).toContain('This device holds 1 change by Ann Lee that was never sent.');
    fireEvent.click(screen.getByRole('button', { name: 'Discard them' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(await data.db.meta.get(OWNER_KEY)).toBeUndefined();
    expect(await data.db.breeds.count()).toBe(0);
    expect(readCachedUser()?.id).toBe(bo.id);
    expect(data.sync).toBeNull();
  });

  it('[A12] another user’s data with nothing unsent is cleared at once, without asking', async () => {
    await annsDevice(0);
    renderScreen(<Shell user={bo} />, { data, user: bo });
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(screen.queryByRole('alert')).toBeNull();
    expect(await data.db.meta.get(OWNER_KEY)).toBeUndefined();
    expect(data.sync).toBeNull();
  });

  it('[A12] the data’s own user gets the app and syncs', async () => {
    await annsDevice(1);
    const ann = testUser('Staff', { id: ANN.userId, firstName: 'Ann', lastName: 'Lee' });
    renderScreen(<Shell user={ann} />, { data, user: ann });
    await screen.findByText('gate open');
    await waitFor(() => expect(data.sync).not.toBeNull());
    expect(reload).not.toHaveBeenCalled();
  });
});
