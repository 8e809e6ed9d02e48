import { uuidv7 } from 'uuidv7';

/** Entity ids are UUID v7 made on the device, so records created offline never clash. */
export function newId(): string {
  return uuidv7();
}

/**
 * An entity id as a key of the document: a UUID in its canonical lowercase form. Postgres's
 * uuid type ignores case, so an uppercase key would be a second entity in the document but
 * the same projection row (found by the fuzzer: it took the document host down).
 */
const ENTITY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isEntityId(value: string): boolean {
  return ENTITY_ID.test(value);
}

/** A UUID in any case, as Postgres's uuid type reads it (ids in URLs, before they reach a query). */
export function isUuid(value: string): boolean {
  return ENTITY_ID.test(value.toLowerCase());
}
