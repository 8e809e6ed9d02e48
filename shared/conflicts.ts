import type { Collection } from './doc-layout.ts';

/**
 * [T6] One side of a conflict: a value someone wrote, who wrote it and when the server made
 * it durable.
 */
export type ConflictSide = {
  /** As the REST reads give it ([Y3] values); null: not set. */
  value: unknown;
  userId: string | null;
  userName: string | null;
  /** When the server made that write durable, ISO. */
  serverTime: string;
};

/**
 * [T6] Two writes of one field of one record, neither made having seen the other: the merge
 * kept one value and dropped the other. Open until a later write of the field that had seen
 * the kept value, or the record's deletion, closes it (`GET /api/conflicts`, docs/api.md).
 */
export type Conflict = {
  /** A decimal string; a higher id was detected later. */
  id: string;
  collection: Collection;
  entityId: string;
  field: string;
  /** The value the merge kept: the record's value now. */
  kept: ConflictSide;
  /** The value the merge dropped. */
  other: ConflictSide;
  /** A money field ([T6]): always ask, never worded as settled. */
  money: boolean;
  /** ISO. */
  detectedAt: string;
};

export type ConflictList = { conflicts: Conflict[] };

/** How a conflict was closed: the other value written back, the kept one written again, another value, or the record deleted. */
export type ConflictClosing = 'put back' | 'kept' | 'changed' | 'deleted';

/** [T6] Money fields: their conflicts always ask a person. */
export const MONEY_FIELDS: Partial<Record<Collection, readonly string[]>> = {
  horses: ['priceUsd'],
  sales: ['salePrice', 'downPayment'],
  payments: ['amount'],
};

export function isMoneyField(collection: Collection, field: string): boolean {
  return MONEY_FIELDS[collection]?.includes(field) ?? false;
}
