// "Every list filled" (issue 68's new-device target): the device's read database holds every
// horse, supplier, buyer, sale and payment of the bench ranch, which is what the lists read.
// Sales and payments are ledger entries (document layout 3): they reach the read database
// through the ledger pull (web/src/data/ledger/pull.ts), one row each in `sales` and
// `payments`. Asked of the page every 250 ms with IndexedDB counts, which IndexedDB answers
// off the main thread. A build from before the ledger (BENCH_WEB_DIR) keeps payments as one
// row per sale (`salePayments`), which cannot be counted without reading every row, which on
// a throttled page would be a long task of its own inside the measured window: there, the
// other lists filled and the app's own word that the first sync is in (the socket synced, the
// projection idle) end the wait, and the payments are counted once after that moment,
// failing the run if any is missing.
import type { Page } from 'playwright-core';
import { sleep } from '../../sync-server/bench/clients.ts';
import { type ListCounts, LISTS } from '../../sync-server/bench/ranch-seed.ts';

export type { ListCounts };

/** The read database's counts; `payments` null while it can only be read row by row (no `payments` table). */
type Counted = { [list in keyof ListCounts]: number | null };

/** The read database's tables per list: payments in the ledger's table, or (an older build) one row per sale. */
const countInPage = () =>
  new Promise<Counted>((resolve) => {
    const open = indexedDB.open('ranch-data');
    const none = { horses: 0, suppliers: 0, buyers: 0, sales: 0, payments: 0 };
    open.onerror = () => resolve(none);
    open.onsuccess = () => {
      const db = open.result;
      const tables = { horses: 'horses', suppliers: 'owners', buyers: 'buyers', sales: 'sales', payments: 'payments' };
      const present = Object.entries(tables).filter(([, table]) => db.objectStoreNames.contains(table));
      if (present.length === 0) {
        db.close();
        return resolve(none);
      }
      const tx = db.transaction(present.map(([, table]) => table));
      const counted: Counted = { horses: 0, suppliers: 0, buyers: 0, sales: 0, payments: null };
      for (const [list, table] of present) {
        const request = tx.objectStore(table).count();
        request.onsuccess = () => {
          counted[list as keyof Counted] = request.result;
        };
      }
      tx.oncomplete = () => {
        db.close();
        resolve(counted);
      };
      tx.onerror = () => {
        db.close();
        resolve(none);
      };
    };
  });

/** Payments kept one row per sale (a document's old-layout payments), counted by reading every row. */
const paymentsPerSale = () =>
  new Promise<number>((resolve) => {
    const open = indexedDB.open('ranch-data');
    open.onerror = () => resolve(0);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('salePayments')) {
        db.close();
        return resolve(0);
      }
      const all = db.transaction('salePayments').objectStore('salePayments').getAll();
      all.onsuccess = () => {
        db.close();
        resolve((all.result as { payments: unknown[] }[]).reduce((sum, row) => sum + row.payments.length, 0));
      };
      all.onerror = () => {
        db.close();
        resolve(0);
      };
    };
  });

/** The app says its first sync is in: the socket synced, the projection idle (web/src/data). */
const appSynced = (page: Page) =>
  page.evaluate(async () => {
    const ranch = (
      window as unknown as { __ranch?: { provider: { synced: boolean } | null; data: { projection: { idle(): Promise<void> } } } }
    ).__ranch;
    if (ranch?.provider?.synced !== true) return false;
    await ranch.data.projection.idle();
    return true;
  });

/**
 * Waits until every list is filled; resolves with the moment (epoch ms) it was first seen
 * filled. Throws when `timeoutMs` passes, or when the payments counted after it fall short.
 */
export async function untilListsFilled(page: Page, expected: ListCounts, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last: Counted | undefined;
  for (;;) {
    const counted = await page.evaluate(countInPage).catch(() => undefined);
    const now = Date.now();
    last = counted ?? last;
    const others = LISTS.filter((list) => list !== 'payments');
    if (counted && others.every((list) => (counted[list] ?? 0) >= expected[list])) {
      if (counted.payments !== null && counted.payments >= expected.payments) return now;
      if (counted.payments === null && (await appSynced(page).catch(() => false))) {
        const payments = await page.evaluate(paymentsPerSale);
        if (payments < expected.payments) {
          throw new Error(`The app said its first sync was in with ${payments} of ${expected.payments} payments on the device`);
        }
        return now;
      }
    }
    if (now > deadline) {
      const seen = last ? LISTS.map((list) => `${last![list] ?? '?'} of ${expected[list]} ${list}`).join(', ') : 'nothing';
      throw new Error(`Timed out waiting for every list to fill (${seen})`);
    }
    await sleep(250);
  }
}

/**
 * What the read database holds now, payments included: the ledger's rows and any kept one
 * row per sale. One long read where payments are kept per sale: call it outside measured windows.
 */
export async function listsHeld(page: Page): Promise<ListCounts> {
  const counted = await page.evaluate(countInPage);
  const perSale = await page.evaluate(paymentsPerSale);
  return {
    horses: counted.horses ?? 0,
    suppliers: counted.suppliers ?? 0,
    buyers: counted.buyers ?? 0,
    sales: counted.sales ?? 0,
    payments: (counted.payments ?? 0) + perSale,
  };
}

/** Throws unless the read database holds every list of `expected` (`when`: the moment, for the message). */
export async function assertListsHeld(page: Page, expected: ListCounts, when: string): Promise<ListCounts> {
  const held = await listsHeld(page);
  const short = LISTS.filter((list) => held[list] < expected[list]);
  if (short.length > 0) {
    throw new Error(`${when}, the read database holds ${short.map((list) => `${held[list]} of ${expected[list]} ${list}`).join(', ')}`);
  }
  return held;
}
