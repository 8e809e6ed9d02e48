import type * as Y from 'yjs';
import { inUseMessage } from '../../../../shared/index.ts';
import type { WriteTargets } from '../ranch-writes.ts';
import { createCorrectionRepository } from '../repositories/corrections.ts';
import { createPaymentRepository } from '../repositories/payments.ts';
import { InUseError } from '../repositories/references.ts';
import { createSaleRepository } from '../repositories/sales.ts';
import type { LedgerBook } from './ledger-book.ts';
import type { LedgerRepository } from './ledger-rows.ts';

/** The ledger's repositories for one pass of the outbox, recording into `book`; `doc` for the horse statuses they set ([S18]). */
export function ledgerTargets(doc: Y.Doc, book: LedgerBook): Pick<WriteTargets, LedgerRepository> {
  return {
    sales: createSaleRepository(doc, book),
    payments: createPaymentRepository(doc, book),
    corrections: createCorrectionRepository(doc, book),
  };
}

/**
 * [H8] [C6] A horse or buyer a ledger sale names (pulled, or waiting on this device) is not
 * deleted, as the server refuses it (docs/sync-rules.md §7 "What a ledger sale keeps"):
 * throws the same InUseError the document's references give.
 */
export function refuseIfLedgerNames(book: LedgerBook, repository: string, method: string, args: unknown[]): void {
  if (method !== 'remove' || (repository !== 'horses' && repository !== 'buyers')) return;
  const count = book.salesNaming(repository === 'horses' ? 'horseId' : 'buyerId', String(args[0]));
  if (count > 0) throw new InUseError(inUseMessage(repository, { collection: 'sales', count }), count);
}
