import fc from 'fast-check';
import { COLLECTIONS, RECORD_FIELDS, REFERENCES, type Collection } from '../../../shared/index.ts';
import { fullRecord, someFields, type SymbolicFields } from '../support/ranch-arbitraries.ts';

/**
 * Hostile Yjs updates, symbolic: which entity of the run's pool (`target`), what to put
 * there. `hostile-updates.ts` makes each one as a real change of a Y.Doc that is a copy of
 * the server's state, so it integrates.
 */
export type Target = { collection: Collection; index: number };

/** A value a stock Yjs client can put into a map: anything lib0's writeAny encodes, or bytes. */
export type Plain = unknown;
export type FieldShape = 'object' | 'array' | 'y-text' | 'y-array' | 'y-map-with-scalars';
export type SharedType = 'text' | 'array' | 'xml-fragment' | 'xml-element';
/** Where a key goes (N1: Yjs keeps every key's name for good): under a collection, in a record, or as a top-level name. */
export type KeyPlace = 'collection' | 'field' | 'root';

export type HostileUpdate =
  | { kind: 'bad-key'; collection: Collection; key: string; asMap: boolean; value: Plain }
  | { kind: 'case-variant-key'; target: Target }
  | { kind: 'plain-value'; target: Target; value: Plain }
  | { kind: 'shared-type'; target: Target; type: SharedType }
  | { kind: 'no-id'; target: Target; fields: SymbolicFields }
  | { kind: 'foreign-id'; target: Target; other: Target | string }
  | { kind: 'unknown-field'; target: Target; field: string; value: Plain }
  | { kind: 'nested-map'; target: Target; field: string; depth: number }
  | { kind: 'object-field'; target: Target; field: string; shape: FieldShape }
  | { kind: 'long-string'; target: Target; field: string; length: number }
  | { kind: 'bad-value'; target: Target; field: string; value: Plain }
  | { kind: 'dangling-ref'; target: Target; field: string; missing: string }
  | { kind: 'delete'; target: Target }
  | { kind: 'edit'; target: Target; fields: SymbolicFields }
  | { kind: 'top-level'; name: string; type: 'text' | 'map' | 'array' | 'xml-fragment' }
  | { kind: 'long-key'; where: KeyPlace; target: Target; char: string; length: number }
  | { kind: 'many-keys'; where: Exclude<KeyPlace, 'root'>; target: Target; count: number }
  | { kind: 'collection-as-other-type'; collection: Collection; type: 'text' | 'array'; clientID: number }
  | { kind: 'valid-write'; target: Target; fields: SymbolicFields }
  | { kind: 'batch'; updates: HostileUpdate[] };

/** Entities per collection a run may touch: index 0 (and horse 1) exist, valid, when a run starts. */
export const POOL_SIZES: Record<Collection, number> = {
  breeds: 2,
  colors: 2,
  genders: 2,
  statuses: 2,
  owners: 2,
  buyers: 2,
  horses: 3,
  sales: 2,
  payments: 2,
  careEntries: 2,
  corrections: 2,
};

const collection = fc.constantFrom(...COLLECTIONS);
const targetIn = (collections: readonly Collection[]): fc.Arbitrary<Target> =>
  fc.constantFrom(...collections).chain((c) => fc.integer({ min: 0, max: POOL_SIZES[c] - 1 }).map((index) => ({ collection: c, index })));
const target = targetIn(COLLECTIONS);
const ownField = (c: Collection) => fc.constantFrom(...RECORD_FIELDS[c]);

const plain: fc.Arbitrary<Plain> = fc.oneof(
  fc.string({ maxLength: 16 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom<Plain>(null, undefined, true, false, Number.NaN, Number.POSITIVE_INFINITY, -0, '', 2 ** 53 + 1),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
  fc.uint8Array({ maxLength: 8 }),
);

const badKey = fc.oneof(
  fc.constantFrom(
    '',
    'not-a-uuid',
    '__proto__',
    'constructor',
    'toString',
    '../../etc/passwd',
    '0190a000-0000-7000-8000-00000000000',
    "'; drop table horses; --",
    ' '.repeat(3),
    '\u0000',
  ),
  fc.string({ maxLength: 40 }),
  fc.uuid({ version: 4 }).map((id) => ` ${id}`),
  fc.uuid({ version: 4 }).map((id) => `{${id}}`),
);

/** Values that no record schema accepts for the field they are put in (or nearly none). */
const neverValid: fc.Arbitrary<Plain> = fc.constantFrom<Plain>(
  'a lot',
  '-5',
  '1.2.3',
  '$-1',
  '1e5',
  '99999999999999999999999999999999999',
  '2023-13-01',
  '2021-02-29',
  'yesterday',
  'not-a-uuid',
  '\u0000',
  'Nul\u0000name',
  'x'.repeat(121),
  20240101,
  -1,
  2.5,
  61,
  101,
  5,
  true,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  [],
  {},
  'Bitcoin',
  '0',
  '0.00',
  '',
  '   ',
);

const sharedType = fc.constantFrom<SharedType>('text', 'array', 'xml-fragment', 'xml-element');
const depth = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 20 }) }, { weight: 1, arbitrary: fc.constantFrom(500, 3_000) });
const longLength = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(121, 501, 2_049, 5_001) },
  { weight: 1, arbitrary: fc.constant(200_000) },
);

const referring = (Object.keys(REFERENCES) as Collection[]).filter((c) => REFERENCES[c] !== undefined);

type Kind = Exclude<HostileUpdate['kind'], 'batch'>;

const editOf = (targets: fc.Arbitrary<Target>) =>
  targets.chain((t) => someFields(t.collection).map((fields): HostileUpdate => ({ kind: 'edit', target: t, fields })));

/** One arbitrary per kind of hostile change (the `edit` list also edits append-only payments and create-only sales). */
const BY_KIND: Record<Kind, fc.Arbitrary<HostileUpdate>[]> = {
  'bad-key': [fc.record({ kind: fc.constant('bad-key' as const), collection, key: badKey, asMap: fc.boolean(), value: plain })],
  'case-variant-key': [fc.record({ kind: fc.constant('case-variant-key' as const), target })],
  'plain-value': [fc.record({ kind: fc.constant('plain-value' as const), target, value: plain })],
  'shared-type': [fc.record({ kind: fc.constant('shared-type' as const), target, type: sharedType })],
  'no-id': [target.chain((t) => someFields(t.collection).map((fields): HostileUpdate => ({ kind: 'no-id', target: t, fields })))],
  'foreign-id': [
    fc.record({
      kind: fc.constant('foreign-id' as const),
      target,
      other: fc.oneof(target, fc.constantFrom('', 'x'), fc.uuid({ version: 4 })),
    }),
  ],
  'unknown-field': [
    fc.record({
      kind: fc.constant('unknown-field' as const),
      target,
      field: fc.oneof(
        fc.constantFrom('junk', '__proto__', 'constructor', 'status', 'ID', 'Id', 'notes ', '', 'createdBy', 'deletedAt'),
        fc.string({ maxLength: 10 }),
      ),
      value: plain,
    }),
  ],
  'nested-map': [
    target.chain((t) =>
      fc.record({ kind: fc.constant('nested-map' as const), target: fc.constant(t), field: ownField(t.collection), depth }),
    ),
  ],
  'object-field': [
    target.chain((t) =>
      fc.record({
        kind: fc.constant('object-field' as const),
        target: fc.constant(t),
        field: ownField(t.collection),
        shape: fc.constantFrom<FieldShape>('object', 'array', 'y-text', 'y-array', 'y-map-with-scalars'),
      }),
    ),
  ],
  'long-string': [
    target.chain((t) =>
      fc.record({ kind: fc.constant('long-string' as const), target: fc.constant(t), field: ownField(t.collection), length: longLength }),
    ),
  ],
  'bad-value': [
    target.chain((t) =>
      fc.record({ kind: fc.constant('bad-value' as const), target: fc.constant(t), field: ownField(t.collection), value: neverValid }),
    ),
  ],
  'dangling-ref': [
    targetIn(referring).chain((t) =>
      fc.record({
        kind: fc.constant('dangling-ref' as const),
        target: fc.constant(t),
        field: fc.constantFrom(...Object.keys(REFERENCES[t.collection] ?? {})),
        missing: fc.uuid({ version: 4 }),
      }),
    ),
  ],
  delete: [fc.record({ kind: fc.constant('delete' as const), target })],
  edit: [editOf(target), editOf(targetIn(['payments', 'sales']))],
  'top-level': [
    fc.record({
      kind: fc.constant('top-level' as const),
      name: fc.oneof(
        fc.constantFrom('junk', 'x', 'Horses', 'horses ', '', '__proto__', 'users', 'sessions'),
        fc.string({ minLength: 1, maxLength: 200 }),
      ),
      type: fc.constantFrom('text' as const, 'map' as const, 'array' as const, 'xml-fragment' as const),
    }),
  ],
  'long-key': [
    fc.record({
      kind: fc.constant('long-key' as const),
      where: fc.constantFrom<KeyPlace>('collection', 'field', 'root'),
      target,
      char: fc.constantFrom('k', 'ñ', '🐴'),
      length: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(65, 300, 4_000) }, { weight: 1, arbitrary: fc.constant(100_000) }),
    }),
  ],
  'many-keys': [
    fc.record({
      kind: fc.constant('many-keys' as const),
      where: fc.constantFrom('collection' as const, 'field' as const),
      target,
      count: fc.integer({ min: 20, max: 500 }),
    }),
  ],
  'collection-as-other-type': [
    fc.record({
      kind: fc.constant('collection-as-other-type' as const),
      collection,
      type: fc.constantFrom('text' as const, 'array' as const),
      clientID: fc.integer({ min: 1, max: 2 ** 31 }),
    }),
  ],
  'valid-write': [
    target.chain((t) => fullRecord(t.collection, 'valid').map((fields): HostileUpdate => ({ kind: 'valid-write', target: t, fields }))),
  ],
};

/**
 * Kinds left out with FUZZ_SKIP (comma separated), to look past a known failure while its
 * fix is under way; every kind runs by default.
 */
const skipped = new Set(
  (process.env.FUZZ_SKIP ?? '')
    .split(',')
    .map((kind) => kind.trim())
    .filter(Boolean),
);
const single = fc.oneof(
  ...(Object.entries(BY_KIND) as [Kind, fc.Arbitrary<HostileUpdate>[]][])
    .filter(([kind]) => !skipped.has(kind))
    .flatMap(([, list]) => list),
);

/** One hostile update: a single change, or a few made in one transaction. */
export const hostileUpdate: fc.Arbitrary<HostileUpdate> = fc.oneof(
  { weight: 8, arbitrary: single },
  { weight: 1, arbitrary: fc.array(single, { minLength: 2, maxLength: 4 }).map((updates) => ({ kind: 'batch' as const, updates })) },
);

/** The kind an update is counted under (a batch counts each of its parts). */
export function updateKinds(update: HostileUpdate): string[] {
  return update.kind === 'batch' ? update.updates.flatMap(updateKinds) : [update.kind];
}
