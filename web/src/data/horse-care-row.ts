import type { CareEntry } from '../../../shared/index.ts';

// Apart from horse-care.ts (the projection's side, which reads the document with Yjs): the
// screens read these rows, as sale-payments-row.ts is apart from sale-payments.ts.

/**
 * The read model keeps a horse's care entries as ONE row (table `horseCare`), not a row per
 * entry (horse-care.ts says why).
 */
export type HorseCareRow = { horseId: string; entries: CareEntry[] };

/** The care entries of the given rows (missing rows: horses without care), in one list. */
export function flattenCare(rows: readonly (HorseCareRow | undefined)[]): CareEntry[] {
  return rows.flatMap((row) => row?.entries ?? []);
}
