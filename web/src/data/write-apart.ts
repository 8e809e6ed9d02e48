import Dexie, { type Table } from 'dexie';
import type { EntityFields } from '../../../shared/index.ts';

/** A row IndexedDB would not store (or delete), and the error it gave. */
export type Refused = { key: string; problem: string };

/** Errors that writing fewer rows cannot avoid: the caller retries later instead. */
const WHOLE_FAILURES = new Set([
  'QuotaExceededError',
  'DatabaseClosedError',
  'InvalidStateError',
  'VersionError',
  'OpenFailedError',
  'MissingAPIError',
]);

const nameOf = (error: unknown): string => {
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : 'Error';
};
const innerOf = (error: unknown): unknown => (error instanceof Dexie.DexieError ? error.inner : undefined);
const isWhole = (error: unknown) => WHOLE_FAILURES.has(nameOf(error)) || WHOLE_FAILURES.has(nameOf(innerOf(error)));

/**
 * Writes one table's rows after the transaction holding them failed, so that one row
 * IndexedDB refuses cannot keep the others out: each piece in a transaction of its own, a
 * failing piece halved until the refused rows are found (few requests when few rows fail).
 * Throws when the failure is not a row's (quota, a closed database).
 */
export async function writeApart(
  table: Table<EntityFields, string>,
  present: EntityFields[],
  removed: string[],
  chunk: number,
): Promise<Refused[]> {
  const keyPath = table.schema.primKey.keyPath as string;
  const refused: Refused[] = [];
  for (let i = 0; i < present.length; i += chunk) {
    await apart(
      present.slice(i, i + chunk),
      (rows) => table.bulkPut(rows),
      (row) => String(row[keyPath]),
      refused,
    );
  }
  for (let i = 0; i < removed.length; i += chunk) {
    await apart(
      removed.slice(i, i + chunk),
      (keys) => table.bulkDelete(keys),
      (key) => key,
      refused,
    );
  }
  return refused;
}

async function apart<T>(
  items: T[],
  write: (items: T[]) => Promise<unknown>,
  keyOf: (item: T) => string,
  refused: Refused[],
): Promise<void> {
  try {
    await write(items);
  } catch (error) {
    if (isWhole(error)) throw error;
    if (error instanceof Dexie.BulkError) {
      // The others were written: only the failed positions are refused.
      for (const [position, failure] of Object.entries(error.failuresByPos)) {
        refused.push({ key: keyOf(items[Number(position)]!), problem: `not stored: ${nameOf(failure)}` });
      }
      return;
    }
    if (items.length === 1) {
      refused.push({ key: keyOf(items[0]!), problem: `not stored: ${nameOf(error)}` });
      return;
    }
    const half = items.length >> 1;
    await apart(items.slice(0, half), write, keyOf, refused);
    await apart(items.slice(half), write, keyOf, refused);
  }
}
