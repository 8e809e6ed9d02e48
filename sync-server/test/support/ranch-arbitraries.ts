import fc from 'fast-check';
import { PAYMENT_METHODS, type Collection, type JsonValue } from '../../../shared/index.ts';

/**
 * fast-check arbitraries for ranch edits. Entity ids are symbolic (`{ ref, index }` into a
 * small pool per collection) and become UUIDs only when a run executes, so a replayed or
 * shrunk run never meets the entities of an earlier run on the same server.
 */
export type Ref = { ref: Collection; index: number };
export type Value = JsonValue | Ref;
export type SymbolicFields = Record<string, Value>;

/** How many entities of each collection a run may create and refer to. */
export const POOL = { breeds: 2, colors: 2, genders: 2, statuses: 2, owners: 2, buyers: 2, horses: 3, sales: 2 } as const;
export type PooledCollection = keyof typeof POOL;
export const POOLED = Object.keys(POOL) as PooledCollection[];
export const LOOKUPS = ['breeds', 'colors', 'genders', 'statuses'] as const;

export function isRef(value: unknown): value is Ref {
  return typeof value === 'object' && value !== null && 'ref' in value;
}

export const indexIn = (collection: PooledCollection) => fc.integer({ min: 0, max: POOL[collection] - 1 });

/**
 * The arbitraries of every field of every collection. With `bad` true a value is now and
 * then what a buggy or hostile device would write (a malformed amount, a reference to
 * nothing, a wrong type); otherwise always what a form would send.
 */
function fieldArbitraries(bad: boolean): Record<Collection, Record<string, fc.Arbitrary<Value>>> {
  const values = (...choices: Value[]): fc.Arbitrary<Value> => fc.constantFrom(...choices);
  const sometimesBad = (good: fc.Arbitrary<Value>, wrong: fc.Arbitrary<Value>): fc.Arbitrary<Value> =>
    bad ? fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: wrong }) : good;
  const uuid = fc.uuid({ version: 4 }) as fc.Arbitrary<Value>;
  const ref = (collection: PooledCollection): fc.Arbitrary<Value> => indexIn(collection).map((index) => ({ ref: collection, index }));
  // A reference to nothing (a random UUID), malformed, or missing.
  const requiredRef = (collection: PooledCollection) => sometimesBad(ref(collection), fc.oneof(uuid, values('not-an-id', '', null, 7)));
  const optionalRef = (collection: PooledCollection) =>
    sometimesBad(fc.oneof(ref(collection), values(null, '')), fc.oneof(uuid, values('nope', 3)));

  const name = sometimesBad(
    values('Star', 'Goliath', '  Dusty  ', 'Ñandú', "O'Hara", 'Quarter Horse'),
    values('', '   ', 'Tab\there', 'Nul\u0000name', 42, null, 'x'.repeat(121)),
  );
  const money = sometimesBad(
    values('8000', '12500.5', '$1,200.00', '0.99', 950.25, '15000.00'),
    values('a lot', '-5', '1.2.3', true, '1e5'),
  );
  const date = sometimesBad(
    values('2019-04-01', '2020-02-29', '2021-12-31T00:00:00.000Z'),
    values('2023-13-01', '2021-02-29', 'yesterday', 20240101),
  );
  const createdAt = sometimesBad(
    fc.oneof(
      fc
        .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString() as Value),
      values('2024-05-01T10:00:00+02:00'),
    ),
    values('yesterday', '2024-05-01', null),
  );
  const isActive = sometimesBad(fc.boolean(), values('yes', null, 1));
  const lookup = { name, isActive };
  return {
    breeds: lookup,
    colors: lookup,
    genders: lookup,
    statuses: lookup,
    horses: {
      name,
      breedId: requiredRef('breeds'),
      colorId: requiredRef('colors'),
      genderId: requiredRef('genders'),
      statusId: optionalRef('statuses'),
      ownerId: optionalRef('owners'),
      birthdate: fc.oneof(date, values(null)),
      ageYears: sometimesBad(
        fc.oneof(fc.integer({ min: 0, max: 30 }) as fc.Arbitrary<Value>, values(null, '7')),
        values(-1, 2.5, 'old', 61),
      ),
      priceUsd: fc.oneof(money, values(null, '')),
      photoUrl: values(null, '/api/objects/0190a0a0-0000-7000-8000-0000000000aa'),
      notes: sometimesBad(values(null, 'Gentle', '  ', 'Line\nbreak'), values('bell\u0007', 17)),
    },
    owners: {
      firstName: name,
      lastName: name,
      phone: sometimesBad(values(null, '', '+1 (555) 010-0100', '555.0100 x12'), values('call me', 5550100)),
      email: sometimesBad(values(null, '', 'rider@ranch.test', ' Office@Ranch.Test '), values('nope', 'a@', 12)),
      createdAt,
    },
    buyers: {
      firstName: name,
      lastName: name,
      phone: sometimesBad(values(null, '+44 20 7946 0000'), values('call me')),
      email: sometimesBad(values(null, 'buyer@ranch.test'), values('nope')),
    },
    sales: {
      horseId: requiredRef('horses'),
      buyerId: requiredRef('buyers'),
      salePrice: money,
      downPayment: sometimesBad(values('0', '500', null, '', '1000.50'), values('lots', '-1', '99999999')),
      termsMonths: sometimesBad(values(0, 3, 6, 12, '6'), values(5, null, 'x')),
      interestApr: sometimesBad(values(null, 0, 5.5, '7', 100), values(-1, 101, 'high')),
      scheduleStartDate: fc.oneof(date, values(null)),
      createdAt,
    },
    payments: {
      saleId: requiredRef('sales'),
      amount: sometimesBad(values('500', '1250.75', 300, '$2,000'), values('0', '-3', null, 'x')),
      date: sometimesBad(values('2024-06-01', '2024-06-15T00:00:00Z'), values(null, '2024-06-31')),
      method: sometimesBad(fc.constantFrom<Value>(...PAYMENT_METHODS), values('Bitcoin', null)),
      memo: sometimesBad(values(null, 'first installment'), values('\u0007')),
      installmentId: sometimesBad(values(null), uuid),
    },
    careEntries: {
      horseId: requiredRef('horses'),
      kind: sometimesBad(values('vaccination', 'coggins', 'farrier', 'other'), values('shoeing', null, 3)),
      doneOn: sometimesBad(values('2024-06-01', '2024-06-15T00:00:00Z'), values(null, '2024-06-31')),
      nextDueOn: sometimesBad(values(null, '2025-06-01', ''), values('2020-01-01', 'soon')),
      notes: sometimesBad(values(null, 'front shoes reset'), values('\u0007', 9)),
      recordedBy: sometimesBad(values('0190a0a0-0000-7000-8000-0000000000ee'), values('me', null)),
      recordedByName: sometimesBad(values(null, 'Ann Rider'), values(4)),
      createdAt,
    },
    // [P11] A refund; the fields a refund has none of stay null unless a bad value is drawn.
    corrections: {
      kind: sometimesBad(values('refund'), values('void', 'undo', null)),
      saleId: requiredRef('sales'),
      paymentId: sometimesBad(values(null), uuid),
      amount: sometimesBad(values('50', '1.25'), values('-3', '0', null)),
      date: sometimesBad(values('2024-06-02'), values(null, '2024-06-31')),
      method: sometimesBad(fc.constantFrom<Value>(...PAYMENT_METHODS), values('Barter')),
      reason: sometimesBad(values('Credit returned', 'Overpaid'), values('', null, '\u0007')),
      createdAt,
    },
  };
}

const FIELDS = { any: fieldArbitraries(true), valid: fieldArbitraries(false) };
export type Values = keyof typeof FIELDS;

/** Every field of a record: what a create (or a full form save) writes. */
export const fullRecord = (collection: Collection, values: Values = 'any'): fc.Arbitrary<SymbolicFields> =>
  fc.record(FIELDS[values][collection]);
/** Some fields of a record: an edit. */
export const someFields = (collection: Collection, values: Values = 'any'): fc.Arbitrary<SymbolicFields> =>
  fc.record(FIELDS[values][collection], { requiredKeys: [] }) as fc.Arbitrary<SymbolicFields>;

/** A small bounded list, so a run stays well under a second. */
export const commandList = <T>(command: fc.Arbitrary<T>, maxLength: number) => fc.array(command, { minLength: 1, maxLength });
