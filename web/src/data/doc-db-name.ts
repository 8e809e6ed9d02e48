/**
 * IndexedDB database that y-indexeddb keeps the `ranch` document's updates in. A module of
 * its own: what only needs the name (Clear Local Data) must not bring y-indexeddb and Yjs
 * into the page's entry (docs/web.md "A small entry").
 */
export const DOC_DB_NAME = 'ranch-doc';
