// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { DataProvider } from '../../data/context.tsx';
import { outboxRef } from '../../data/photos/photo-ref.ts';
import { newId } from '../../../../shared/index.ts';
import type { RanchData } from '../../data/ranch-data.ts';
import { SyncBadge } from '../../ui/SyncBadge.tsx';
import { openTestData } from '../../../test/ranch-data.ts';
import { HorsePhoto } from './HorsePhoto.tsx';

describe('horse photos and the sync badge', () => {
  let data: RanchData;
  beforeEach(() => {
    data = openTestData();
    // jsdom has no object URLs.
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:outbox-photo'), revokeObjectURL: vi.fn() }));
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    await data.destroy();
  });

  const show = (photoUrl: string | null) =>
    render(
      <DataProvider data={data}>
        <HorsePhoto photoUrl={photoUrl} name="Dusty" />
      </DataProvider>,
    );

  it('[I4] shows a photo from this device’s outbox, offline too', async () => {
    const id = await data.photos.addDraft(new ArrayBuffer(4), 'image/jpeg', 4);
    show(outboxRef(id));
    expect((await screen.findByRole('img', { name: 'Photo of Dusty' })).getAttribute('src')).toBe('blob:outbox-photo');
  });

  it('[I4] shows "photo on its way" for a photo still in another device’s outbox', async () => {
    show(outboxRef(newId()));
    const placeholder = await screen.findByRole('img', { name: 'Photo of Dusty on its way' });
    expect(placeholder.getAttribute('title')).toBe('Photo on its way');
  });

  it('[H3] shows a served photo from its path, and the placeholder when there is none', async () => {
    const served = `/api/objects/${newId()}`;
    const { unmount } = show(served);
    expect(screen.getByRole('img', { name: 'Photo of Dusty' }).getAttribute('src')).toBe(served);
    unmount();
    show(null);
    expect(screen.queryByRole('img')).toBeNull();
  });

  it("[H3] a card that takes another horse's row shows that horse's photo in a new image, never the last one's", () => {
    const first = `/api/objects/${newId()}`;
    const second = `/api/objects/${newId()}`;
    const card = (photoUrl: string, name: string) => (
      <DataProvider data={data}>
        <HorsePhoto photoUrl={photoUrl} name={name} />
      </DataProvider>
    );
    const { rerender } = render(card(first, 'Dusty'));
    const before = screen.getByRole('img', { name: 'Photo of Dusty' });
    rerender(card(second, 'Comet'));
    const after = screen.getByRole('img', { name: 'Photo of Comet' });
    expect(after.getAttribute('src')).toBe(second);
    // A browser keeps painting an <img>'s old picture until its new address has loaded.
    expect(after).not.toBe(before);
  });

  it("[I6] never requests a photo address that is not this ranch's: the placeholder shows instead", () => {
    for (const photoUrl of ['https://tracker.example/pixel.gif', '/api/logout']) {
      const { unmount, container } = show(photoUrl);
      expect(container.querySelector('img')).toBeNull();
      expect(container.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
      unmount();
    }
  });

  it('[O5] the badge counts records with changes waiting and queued photos', async () => {
    render(
      <DataProvider data={data}>
        <SyncBadge />
      </DataProvider>,
    );
    await data.tracker.loaded;
    expect(await screen.findByText('All changes saved')).toBeTruthy();
    data.lookups.create('breeds', { name: 'Arabian' });
    data.lookups.create('colors', { name: 'Bay' });
    expect(await screen.findByText('2 changes waiting')).toBeTruthy();
    await data.photos.queue(await data.photos.addDraft(new ArrayBuffer(4), 'image/jpeg', 4));
    expect(await screen.findByText('1 photo waiting')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Sync status' })).toBeTruthy();
  });
});
