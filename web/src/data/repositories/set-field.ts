import * as Y from 'yjs';
import type { z } from 'zod';
import { collectionMap, DEVICE_TIME_FIELD, type Collection, type JsonValue } from '../../../../shared/index.ts';
import { LOCAL_ORIGIN } from '../origins.ts';
import { NotFoundError } from './references.ts';
import { validate, ValidationError } from './validate.ts';

/**
 * [T6] Sets ONE field of a record to `value`, checked by the field's own schema, and writes
 * it even when it equals the current value: that write says "this value, having seen the
 * one kept", which is how a conflict is answered (keeping a value is writing it again). The
 * device's time is stamped as every change is ([T5]).
 */
export function setOneField(
  doc: Y.Doc,
  collection: Collection,
  schema: z.ZodObject,
  id: string,
  field: string,
  value: unknown,
  notFound: string,
): void {
  if (!Object.hasOwn(schema.shape, field)) throw new ValidationError([{ path: field, message: `No such field: ${field}` }]);
  const parsed = validate(schema.pick({ [field]: true } as never), { [field]: value }) as Record<string, JsonValue>;
  const entity = collectionMap(doc, collection).get(id);
  if (!(entity instanceof Y.Map)) throw new NotFoundError(notFound);
  doc.transact(() => {
    entity.set(field, parsed[field] ?? null);
    entity.set(DEVICE_TIME_FIELD, new Date().toISOString());
  }, LOCAL_ORIGIN);
}
