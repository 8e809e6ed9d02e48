import * as Y from 'yjs';
import { collectionMap, fromCents, parseMoney, type Collection } from '../../../shared/index.ts';

/** The money fields of the document ([S14]). */
const MONEY_FIELDS: readonly [Collection, string][] = [
  ['horses', 'priceUsd'],
  ['sales', 'salePrice'],
  ['sales', 'downPayment'],
  ['payments', 'amount'],
];

/**
 * How rules version 2 and earlier read an amount: a number rounded to cents; a string with
 * everything but digits and the first dot dropped and cut to two decimals. `undefined` when
 * they refused it too.
 */
function earlierReading(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return undefined;
    const text = value.toFixed(2);
    return /^\d{1,12}\.\d{2}$/.test(text) ? text : undefined;
  }
  if (typeof value !== 'string' || value.length > 32 || !/^\s*\$?[\d,\s]*(\.\d*)?\s*$/.test(value)) return undefined;
  const kept = value.replace(/[^\d.]/g, '');
  const dot = kept.indexOf('.');
  const whole = dot === -1 ? kept : kept.slice(0, dot);
  const fraction = dot === -1 ? '' : kept.slice(dot + 1, dot + 3);
  if (!/^\d{1,12}$/.test(whole)) return undefined;
  return fromCents(Number(whole) * 100 + Number(fraction.padEnd(2, '0')));
}

/**
 * [S14] Rules version 3 reads amounts strictly (`parseMoney`): a stored amount that the
 * earlier rules accepted by cutting or stripping it ("12.345", "12 500", 12.345) is written
 * as the amount they read it as — the one every device and REST has shown since — so no
 * recorded sale or payment is judged invalid for how it was once written.
 */
export function migrateStrictMoney(doc: Y.Doc): void {
  for (const [collection, field] of MONEY_FIELDS) {
    for (const entity of collectionMap(doc, collection).values()) {
      if (!(entity instanceof Y.Map)) continue;
      const value: unknown = entity.get(field);
      if (value === null || value === undefined || (typeof value !== 'string' && typeof value !== 'number')) continue;
      if (typeof value === 'string' && value.trim() === '') continue;
      if (parseMoney(value).ok) continue;
      const earlier = earlierReading(value);
      if (earlier !== undefined) entity.set(field, earlier);
    }
  }
}
