import type * as Y from 'yjs';
import { markHorseSold, newId, saleInput, type SaleInput } from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { requireEntity } from './references.ts';
import { validate } from './validate.ts';
import { writeStamped } from './device-time.ts';

export type SaleRepository = ReturnType<typeof createSaleRepository>;

/**
 * Sales; status is derived from payments and never stored ([S7], [Y5]). Create only: a sale is
 * not changed once recorded, as on REST (the server writes back any change: docs/sync-rules.md).
 */
export function createSaleRepository(doc: Y.Doc) {
  return {
    /** Returns the id of the new sale. The horse and the buyer must exist. */
    create(input: SaleInput, id: string = newId()): string {
      const fields = validate(saleInput, input);
      requireEntity(doc, 'horses', fields.horseId, 'Horse not found');
      requireEntity(doc, 'buyers', fields.buyerId, 'Buyer not found');
      doc.transact(() => {
        // [S18] The horse is Sold in the same change; the sale keeps the status it had.
        const previousStatusId = markHorseSold(doc, fields.horseId, writeStamped);
        writeStamped(doc, 'sales', id, { ...fields, previousStatusId, createdAt: new Date().toISOString() });
      }, LOCAL_ORIGIN);
      return id;
    },
  };
}
