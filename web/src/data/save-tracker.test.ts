import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { writeEntity } from '../../../shared/index.ts';
import { openRanchDb } from './db.ts';
import { createSaveTracker } from './save-tracker.ts';

const HORSE = '0190a000-0000-7000-8000-0000000000aa';
let cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups) await cleanup();
  cleanups = [];
});

let seq = 0;
function setup() {
  const db = openRanchDb(`tracker-${++seq}`);
  cleanups.push(() => db.delete());
  return db;
}

const serverVectorOf = (doc: Y.Doc) => Y.decodeStateVector(Y.encodeStateVector(doc));

describe('save tracker', () => {
  it('[O5] [O2] reports changes waiting until the server acknowledges them', async () => {
    const db = setup();
    const doc = new Y.Doc();
    const tracker = createSaveTracker(doc, db);
    await tracker.loaded;
    expect(tracker.isSaved()).toBe(true);

    doc.transact(() => writeEntity(doc, 'horses', HORSE, { name: 'Blaze' }));
    expect(tracker.isSaved()).toBe(false);

    const acknowledged = serverVectorOf(doc);
    doc.transact(() => writeEntity(doc, 'horses', HORSE, { name: 'Blaze II' }));
    tracker.acknowledge(acknowledged);
    expect(tracker.isSaved()).toBe(false);

    tracker.acknowledge(serverVectorOf(doc));
    expect(tracker.isSaved()).toBe(true);
  });

  it('[O5] ignores changes from other devices and remembers unsaved changes across a restart', async () => {
    const db = setup();
    const first = new Y.Doc();
    const tracker = createSaveTracker(first, db);
    await tracker.loaded;

    const other = new Y.Doc();
    other.transact(() => writeEntity(other, 'horses', HORSE, { name: 'From the office' }));
    Y.applyUpdate(first, Y.encodeStateAsUpdate(other), 'remote');
    expect(tracker.isSaved()).toBe(true);

    first.transact(() => writeEntity(first, 'horses', HORSE, { notes: 'Written offline' }));
    await expect.poll(() => db.meta.get('sync.authoredClients')).toEqual({ key: 'sync.authoredClients', value: [first.clientID] });
    tracker.destroy();

    // The next session has a new client id; the stored document still holds the old one's changes.
    const second = new Y.Doc();
    Y.applyUpdate(second, Y.encodeStateAsUpdate(first));
    const restarted = createSaveTracker(second, db);
    await restarted.loaded;
    expect(second.clientID).not.toBe(first.clientID);
    expect(restarted.isSaved()).toBe(false);

    restarted.acknowledge(serverVectorOf(second));
    expect(restarted.isSaved()).toBe(true);
    await expect.poll(() => db.meta.get('sync.authoredClients')).toEqual({ key: 'sync.authoredClients', value: [] });
  });
});
