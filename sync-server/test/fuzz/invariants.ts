import * as Y from 'yjs';
import { MOVED_TO_LEDGER, type Collection, type EntityFields } from '../../../shared/index.ts';
import type { ApiClient } from '../support/client.ts';
import { ledgerPullOf } from '../support/ledger-pull.ts';
import type { TestServer } from '../support/server.ts';
import { connectDevice, whenSynced } from '../support/sync-client.ts';
import { deviceRecords } from './device-read-model.ts';
import { canonicalRecord, differences, ledgerRecords, projectionRecords, validEntities, type Records } from './records.ts';

const SYNC_TIMEOUT_MS = 20_000;

export type HonestEntity = { collection: Collection; id: string; fields: EntityFields };

export type InvariantReport = {
  violations: string[];
  /** Invariants checked (each a comparison of one reader with another, or a liveness check). */
  checked: number;
  /** Acknowledged honest writes whose entity is not on the server as written. */
  lost: number;
};

const describeVector = (vector: Uint8Array) => JSON.stringify([...Y.decodeStateVector(vector)].sort(([a], [b]) => a - b));
const shorten = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}…` : text);

/** Resolves with `promise`'s value, or `undefined` after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The invariants of one run, among the entities it touched (`only`, lowercase ids):
 * (a) the server serves: REST answers 200 and a new stock device syncs;
 * (b) every acknowledged honest write is in the projection and, as written, in the document or,
 *     a sale, payment or correction (layout 3), in the ledger;
 * (c) the Postgres projection equals the valid entities of the server's document and the ledger's entries;
 * (d) a fresh device's Dexie read model, built by the app's projection and ledger pull, equals the Postgres projection.
 * (e), checked by the harness: the document a new device downloads grew by no more than the
 * valid records the run wrote and a bounded trace per acknowledged change (N1).
 */
export async function checkInvariants(
  server: TestServer,
  staff: ApiClient,
  only: ReadonlySet<string>,
  honest: HonestEntity[],
): Promise<InvariantReport> {
  const violations: string[] = [];
  const rest = await within(
    staff.request('/api/horses').then((response) => response.status),
    SYNC_TIMEOUT_MS,
  );
  if (rest !== 200) violations.push(`(a) GET /api/horses answered ${rest ?? 'nothing'} instead of 200`);
  const reader = connectDevice(server.url, staff.cookie);
  try {
    if (
      (await within(
        whenSynced(reader).then(() => true),
        SYNC_TIMEOUT_MS,
      )) === undefined
    ) {
      violations.push(`(a) a new device did not sync within ${SYNC_TIMEOUT_MS} ms`);
      return { violations, checked: 2, lost: 0 };
    }
    // Sync step 2 answers what the device lacks: once told it is synced, it holds the document.
    const host = await server.registry.get();
    const served = await host.run(() => describeVector(Y.encodeStateVector(host.doc)));
    const held = () => describeVector(Y.encodeStateVector(reader.doc));
    if (held() !== served) {
      violations.push(
        `(a) a new device was told it is synced (sync step 2) before it held the server's document: state vector ${shorten(held())} vs ${shorten(served)}`,
      );
      const deadline = Date.now() + SYNC_TIMEOUT_MS;
      while (held() !== served && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (held() !== served) {
        violations.push(`(a) a new device never received the whole document within ${SYNC_TIMEOUT_MS} ms`);
        return { violations, checked: 3, lost: 0 };
      }
    }
    const document = validEntities(reader.doc, only);
    const ledger = await ledgerRecords(staff, only);
    const projection = await projectionRecords(server.db.sql, only);
    const inLedger = (collection: Collection) => (MOVED_TO_LEDGER as readonly Collection[]).includes(collection);
    let lost = 0;
    for (const { collection, id, fields } of honest) {
      const key = `${collection}/${id}`;
      const written = canonicalRecord(collection, id, { ...fields, id });
      const readers: [string, Records][] = [['projection', projection], inLedger(collection) ? ['ledger', ledger] : ['document', document]];
      const missing = readers.filter(([, records]) => records.get(key) !== written);
      if (missing.length > 0) lost += 1;
      for (const [where, records] of missing) {
        violations.push(
          `(b) acknowledged honest write lost in the ${where}: ${key}\n    written ${written}\n    found   ${records.get(key) ?? 'absent'}`,
        );
      }
    }
    violations.push(
      ...differences('(c) projection vs valid entities of the document and the ledger', new Map([...document, ...ledger]), projection),
    );
    const device = await deviceRecords(reader.doc, only, ledgerPullOf(server.url, staff.cookie));
    violations.push(...differences('(d) device read model vs projection', projection, device));
    return { violations, checked: 6, lost };
  } finally {
    reader.destroy();
  }
}
