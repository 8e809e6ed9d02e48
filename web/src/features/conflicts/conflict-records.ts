import { CARE_KIND_LABELS } from '../../../../shared/care-kinds.ts';
import { type Collection, LOOKUP_KINDS } from '../../../../shared/collections.ts';
import type { CareEntry, Conflict } from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import { recordHref } from '../../ui/record-link.tsx';
import { contactName } from '../contacts/contact-name.ts';
import { collectionNoun } from '../history/history-text.ts';
import { dateText } from '../sales/sale-display.ts';

/** [T8] The record a conflict is about, as the bell names and links it. */
export type ConflictRecord = { name: string; href: string };

/** `collection:id`, as the records are keyed. */
export const conflictRecordKey = (conflict: Pick<Conflict, 'collection' | 'entityId'>) => `${conflict.collection}:${conflict.entityId}`;

const isLookup = (collection: Collection) => (LOOKUP_KINDS as readonly string[]).includes(collection);

/**
 * [T8] The name and address of each conflict's record, from what the device holds: a horse's
 * name, a contact's name, a list item's name, a care entry's care and horse. A record the
 * device does not hold is named by its kind ('Horse') and still linked: its details say it is
 * not on this device ([B10]).
 */
export async function loadConflictRecords(db: RanchDb, conflicts: readonly Conflict[]): Promise<Map<string, ConflictRecord>> {
  const records = new Map<string, ConflictRecord>();
  const byCollection = new Map<Collection, string[]>();
  for (const conflict of conflicts) {
    const ids = byCollection.get(conflict.collection);
    if (ids) ids.push(conflict.entityId);
    else byCollection.set(conflict.collection, [conflict.entityId]);
  }
  for (const [collection, ids] of byCollection) {
    // List items are edited in their dialog in Administration, care entries in their details over their horse's.
    const set = (id: string, name: string | undefined, link = recordHref(collection, id) ?? '/') =>
      records.set(`${collection}:${id}`, { name: name || collectionNoun(collection), href: link });
    if (collection === 'careEntries') {
      const wanted = new Set(ids);
      const found: { entry: CareEntry; horseId: string }[] = [];
      await db.horseCare.each((row) => {
        for (const entry of row.entries) if (wanted.has(entry.id)) found.push({ entry, horseId: row.horseId });
      });
      const horses = await db.horses.bulkGet(found.map(({ horseId }) => horseId));
      found.forEach(({ entry, horseId }, index) => {
        const horse = horses[index]?.name;
        const what = `${CARE_KIND_LABELS[entry.kind]} of ${dateText(entry.doneOn)}`;
        set(entry.id, horse ? `${what} (${horse})` : what, `/horses/${horseId}/care/${entry.id}`);
      });
      for (const id of ids) if (!records.has(`${collection}:${id}`)) set(id, undefined, '/horses');
    } else if (collection === 'horses' || isLookup(collection)) {
      const rows = await db.table<{ name?: string }, string>(collection).bulkGet(ids);
      ids.forEach((id, index) => set(id, rows[index]?.name));
    } else if (collection === 'owners' || collection === 'buyers') {
      const rows = await db[collection].bulkGet(ids);
      ids.forEach((id, index) => {
        const row = rows[index];
        set(id, row ? contactName(row) : undefined);
      });
    } else {
      for (const id of ids) set(id, undefined);
    }
  }
  return records;
}
