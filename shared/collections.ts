/**
 * The collections of the document layout (doc-layout.ts, [Y1]–[Y5] in docs/product.md) and
 * what they are called, in a module without Yjs: modules imported only for these names (the
 * page's start, docs/web.md "A small entry") must not bring Yjs with them. doc-layout.ts
 * re-exports all of it.
 */
export const DOC_NAME = 'ranch';

/**
 * The version of the document layout ([Y2], docs/sync-rules.md "Layout versions"): 3 holds
 * only what people edit in place (DOC_COLLECTIONS); sales, payments and corrections are
 * ledger entries (docs/sync-rules.md "Ledger").
 */
export const DOC_LAYOUT_VERSION = 3;

/** The kinds of record the ranch holds, in the document or in the ledger. */
export const COLLECTIONS = [
  'horses',
  'owners',
  'buyers',
  'sales',
  'payments',
  'breeds',
  'colors',
  'genders',
  'statuses',
  'careEntries',
  'corrections',
] as const;
export type Collection = (typeof COLLECTIONS)[number];

/**
 * What the document holds (layout 3): the records people edit in place, and care entries
 * (docs/sync-rules.md "Not in version 1"). Sales, payments and corrections are in the ledger;
 * one written into the document (an old-layout write) is taken in as a ledger entry.
 */
export const DOC_COLLECTIONS = [
  'horses',
  'owners',
  'buyers',
  'breeds',
  'colors',
  'genders',
  'statuses',
  'careEntries',
] as const satisfies readonly Collection[];
export type DocCollection = (typeof DOC_COLLECTIONS)[number];

/**
 * The collections layout 2 held in the document and layout 3 holds in the ledger, in the order
 * their records are moved (each after what it names): a document or device of layout 2 that
 * still writes them has them taken in as ledger entries.
 */
export const MOVED_TO_LEDGER = ['sales', 'payments', 'corrections'] as const satisfies readonly Collection[];

/** The lookup lists (Administration's dropdowns). */
export const LOOKUP_KINDS = ['breeds', 'colors', 'genders', 'statuses'] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

/** What a person calls one record of each collection (suppliers are `owners` in the document). */
export const COLLECTION_NOUN: Record<Collection, string> = {
  horses: 'horse',
  owners: 'supplier',
  buyers: 'buyer',
  sales: 'sale',
  payments: 'payment',
  breeds: 'breed',
  colors: 'color',
  genders: 'gender',
  statuses: 'status',
  careEntries: 'care entry',
  corrections: 'correction',
};

export type JsonValue = string | number | boolean | null;
export type EntityFields = Record<string, JsonValue>;
