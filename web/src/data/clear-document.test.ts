// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import * as Y from 'yjs';
import { afterEach, describe, expect, it } from 'vitest';
import { newId, writeEntity } from '../../../shared/index.ts';
import { clearLocalData } from '../features/settings/clear-local-data.ts';
import { openRanchData, type RanchData } from './ranch-data.ts';

let data: RanchData | undefined;
afterEach(async () => {
  await data?.destroy().catch(() => {});
  data = undefined;
});

describe('a device cleared by sign-out or Clear Local Data (data layer in the page)', () => {
  it('[A11] [V7] gets nothing of the document still in memory back into its read model, and takes no more changes', async () => {
    data = openRanchData({ docDbName: 'cleared-doc', readDbName: 'cleared-read', syncUrl: 'ws://127.0.0.1:9/api/sync' });
    await data.loaded;
    await data.writes.lookups.create('breeds', { name: 'Arabian' });
    await data.projection.idle();
    expect(await data.db.breeds.count()).toBe(1);

    await clearLocalData(data, { keepAppShell: true });
    expect(await data.db.breeds.count()).toBe(0);
    // Before the page is refreshed, a change has nowhere to go: the form is told so.
    await expect(data.writes.lookups.create('breeds', { name: 'Shire' })).rejects.toThrow(
      "lookups.create not written: this device's data was cleared",
    );
    expect(data.doc.getMap('breeds').size).toBe(1);
    // The page holds the document until it is left. A change heard now (an update still on
    // its way, or the reconcile a write cut short by the clear retries) reaches the
    // projection as this one does.
    const late = new Y.Doc();
    writeEntity(late, 'breeds', newId(), { name: 'Morgan', isActive: true });
    Y.applyUpdate(data.doc, Y.encodeStateAsUpdate(late));
    await data.projection.idle();
    expect(await data.db.breeds.count()).toBe(0);
  });

  it('[A11] [V7] a reconcile under way when the device is cleared writes none of its rows afterwards', async () => {
    const names = { docDbName: 'reconciling-doc', readDbName: 'reconciling-read', syncUrl: 'ws://127.0.0.1:9/api/sync' };
    const stored = openRanchData(names);
    await stored.loaded;
    stored.doc.transact(() => {
      for (let i = 0; i < 6000; i++) writeEntity(stored.doc, 'breeds', newId(), { name: `Breed ${i}`, isActive: true });
    });
    await stored.projection.idle();
    await stored.destroy();

    // At the next start every table is read and then written again (the reconcile): the
    // clear comes while it reads.
    data = openRanchData(names);
    let reconciled = false;
    void data.projection.ready.then(() => (reconciled = true));
    await data.loaded;
    // Else this test would pass whether or not a reconcile under way writes after the clear.
    expect(reconciled).toBe(false);
    await clearLocalData(data, { keepAppShell: true });
    await data.projection.settled();
    expect(await data.db.breeds.count()).toBe(0);
    expect(await data.db.meta.count()).toBe(0);
  });
});
