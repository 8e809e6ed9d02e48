import type { Payment } from '../../../shared/index.ts';

// Apart from sale-payments.ts (the projection's side, which reads the document with Yjs and
// the record schemas): the screens read these rows, and importing that module for them put
// Yjs in the page's start script (docs/web.md "A small entry"). sale-payments.ts re-exports both.

/**
 * The read model keeps a sale's payments as ONE row (table `salePayments`), not a row per
 * payment (sale-payments.ts says why).
 */
export type SalePaymentsRow = { saleId: string; payments: Payment[] };

/** The payments of the given rows (missing rows: sales without payments), in one list. */
export function flattenPayments(rows: readonly (SalePaymentsRow | undefined)[]): Payment[] {
  return rows.flatMap((row) => row?.payments ?? []);
}
