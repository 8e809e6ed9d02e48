import type { Payment } from '../../../shared/index.ts';
import type { InvalidEntities } from './invalid-entities.ts';
import { RecordGroups } from './record-groups.ts';
import type { SalePaymentsRow } from './sale-payments-row.ts';

/**
 * The read model keeps a sale's payments as ONE row (table `salePayments`), not a row per
 * payment: payments are only ever read by sale or all at once, and a ranch has ten times
 * as many payments as sales, so a first sync writes a row per sale, not per payment (the
 * per-row cost of IndexedDB is what a first sync spends its time on; docs/web.md, Data).
 */
export { flattenPayments, type SalePaymentsRow } from './sale-payments-row.ts';

/** The payments of the document grouped by their sale (record-groups.ts). */
export const paymentGroups = (invalid?: InvalidEntities) =>
  new RecordGroups<SalePaymentsRow>('payments', (saleId, payments) => ({ saleId, payments: payments as unknown as Payment[] }), invalid);
