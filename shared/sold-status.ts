import * as Y from 'yjs';
import { collectionMap, getEntity, writeEntity, type Collection, type EntityFields } from './doc-layout.ts';
import { isEntityId, newId } from './ids.ts';

/** [S18] The status a sold horse gets, made on first need when the ranch has none. */
export const SOLD_STATUS_NAME = 'Sold';

type Write = (doc: Y.Doc, collection: Collection, id: string, fields: EntityFields) => void;

const isSoldName = (name: unknown) => typeof name === 'string' && name.trim().toLowerCase() === 'sold';

/**
 * The ranch's Sold status: the status named 'Sold' (any case, active or not; of two, the
 * lower id, so every device picks the same one), or null.
 */
export function findSoldStatus(doc: Y.Doc): string | null {
  let found: string | null = null;
  collectionMap(doc, 'statuses').forEach((status, id) => {
    if (isEntityId(id) && status instanceof Y.Map && isSoldName(status.get('name')) && (found === null || id < found)) found = id;
  });
  return found;
}

/**
 * [S18] Marks the sale's horse Sold, in the caller's transaction: the Sold status (made, active,
 * when the ranch has none) becomes the horse's status. Returns the status it had, which the sale
 * keeps as `previousStatusId` so a cancellation can give it back.
 */
export function markHorseSold(doc: Y.Doc, horseId: string, write: Write = writeEntity): string | null {
  const horse = getEntity(doc, 'horses', horseId);
  const previous = typeof horse?.statusId === 'string' ? horse.statusId : null;
  let sold = findSoldStatus(doc);
  if (sold === null) {
    sold = newId();
    write(doc, 'statuses', sold, { name: SOLD_STATUS_NAME, isActive: true });
  }
  if (horse && previous !== sold) write(doc, 'horses', horseId, { statusId: sold });
  return previous === sold ? null : previous;
}

/**
 * [S17] [S18] A cancelled sale gives its horse back the status it had before the sale, in the
 * caller's transaction — when the horse is still Sold (a status someone set since is theirs to
 * keep) and that status still exists (else none).
 */
export function restoreHorseStatus(doc: Y.Doc, saleId: string, write: Write = writeEntity): void {
  const sale = getEntity(doc, 'sales', saleId);
  if (sale && !soldByAnother(doc, sale.horseId, saleId)) restoreHorseStatusOf(doc, sale, write);
}

/** Whether a sale of the horse other than `saleId`, named by no cancellation, keeps it Sold. */
function soldByAnother(doc: Y.Doc, horseId: unknown, saleId: string): boolean {
  const cancelled = new Set<unknown>();
  collectionMap(doc, 'corrections').forEach((correction) => {
    if (correction instanceof Y.Map && correction.get('kind') === 'cancel') cancelled.add(correction.get('saleId'));
  });
  let standing = false;
  collectionMap(doc, 'sales').forEach((other, id) => {
    if (id !== saleId && other instanceof Y.Map && other.get('horseId') === horseId && !cancelled.has(id)) standing = true;
  });
  return standing;
}

/** restoreHorseStatus for a sale held outside the document (a ledger entry). */
export function restoreHorseStatusOf(doc: Y.Doc, sale: EntityFields, write: Write = writeEntity): void {
  const horseId = typeof sale.horseId === 'string' ? sale.horseId : null;
  const horse = horseId ? getEntity(doc, 'horses', horseId) : undefined;
  if (!horseId || !horse || typeof horse.statusId !== 'string') return;
  if (!isSoldName(getEntity(doc, 'statuses', horse.statusId)?.name)) return;
  const previous = typeof sale.previousStatusId === 'string' ? sale.previousStatusId : null;
  write(doc, 'horses', horseId, { statusId: previous && getEntity(doc, 'statuses', previous) ? previous : null });
}
