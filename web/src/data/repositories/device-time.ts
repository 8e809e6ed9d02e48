import * as Y from 'yjs';
import { collectionMap, DEVICE_TIME_FIELD, writeEntity, type Collection, type EntityFields } from '../../../../shared/index.ts';

/**
 * [T5] writeEntity, stamping the record with this device's time when the write changes
 * something (the history shows it beside the server's time, as the device's claim). A write
 * that changes nothing stays a no-op, so it syncs nothing.
 */
export function writeStamped(doc: Y.Doc, collection: Collection, id: string, fields: EntityFields): void {
  const current = collectionMap(doc, collection).get(id);
  const changed = !(current instanceof Y.Map) || Object.entries(fields).some(([field, value]) => current.get(field) !== value);
  writeEntity(doc, collection, id, changed ? { ...fields, [DEVICE_TIME_FIELD]: new Date().toISOString() } : fields);
}
