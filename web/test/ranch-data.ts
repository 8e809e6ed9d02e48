import * as Y from 'yjs';
import { openRanchData, type RanchData } from '../src/data/ranch-data.ts';

let counter = 0;

/**
 * A fresh data layer on its own fake IndexedDB databases, so tests never share state.
 * `after` collects the teardown; call it from afterEach.
 */
export function openTestData(): RanchData {
  counter += 1;
  const suffix = `${Date.now()}-${counter}`;
  return openRanchData({ docDbName: `test-doc-${suffix}`, readDbName: `test-read-${suffix}` });
}

/** Deletes a test's data layer's databases and closes it: the end of every test that opened one. */
export async function closeTestData(data: RanchData): Promise<void> {
  await data.persistence.clearData();
  await data.destroy();
}

/** Another device's replica: its changes reach ours as a Yjs update, as over the wire. */
export function applyFromOtherDevice(target: Y.Doc, change: (other: Y.Doc) => void): void {
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(target));
  const before = Y.encodeStateVector(other);
  change(other);
  Y.applyUpdate(target, Y.encodeStateAsUpdate(other, before), 'remote');
  other.destroy();
}
