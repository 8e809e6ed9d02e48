import type { Payment } from '../../../../shared/index.ts';
import type { RanchDb } from '../db.ts';
import { readAllByKey } from '../read-by-key.ts';
import { flattenPayments, type SalePaymentsRow } from '../sale-payments-row.ts';

/**
 * Payments live in two tables while a device may hold a document of the old layout: the
 * ledger's (`payments`, a row each) and the document's (`salePayments`, a row per sale). A
 * payment in both (a document's payment the server has moved to the ledger) is the ledger's.
 */
function merged(fromLedger: readonly Payment[], fromDocument: readonly Payment[]): Payment[] {
  if (fromDocument.length === 0) return [...fromLedger];
  const ledgerIds = new Set(fromLedger.map((payment) => payment.id));
  return [...fromLedger, ...fromDocument.filter((payment) => !ledgerIds.has(payment.id))];
}

/** The payments of the given sales, from both tables. */
export async function paymentsOfSales(db: RanchDb, saleIds: readonly string[]): Promise<Payment[]> {
  const [fromLedger, fromDocument] = await Promise.all([
    db.payments.where('saleId').anyOf(saleIds).toArray(),
    db.salePayments.bulkGet([...saleIds]).then(flattenPayments),
  ]);
  return merged(fromLedger, fromDocument);
}

/** Every payment, from both tables; `wide`: read in pages by primary key (read-by-key.ts), for whole-ranch reads in the data host. */
export async function allPayments(db: RanchDb, wide = false): Promise<Payment[]> {
  const [fromLedger, fromDocument] = await Promise.all([
    wide ? readAllByKey(db.payments) : db.payments.toArray(),
    (wide ? readAllByKey(db.salePayments) : db.salePayments.toArray()).then((rows: SalePaymentsRow[]) => flattenPayments(rows)),
  ]);
  return merged(fromLedger, fromDocument);
}
