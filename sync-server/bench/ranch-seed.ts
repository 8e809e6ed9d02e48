import type * as Y from 'yjs';
import { addDays, newId, writeEntity, type CareKind, type Collection, type EntityFields } from '../../shared/index.ts';

/** `careEntriesPerHorse`: a year of care for every horse ([K1]); 5 unless given (0: none). */
export type RanchSize = { horses: number; payments: number; careEntriesPerHorse?: number };

/** A year of care of horse `i` up to `today`: [kind, days ago done, days until the next is due after it]. */
const CARE_YEAR: [CareKind, (i: number) => number, number][] = [
  ['coggins', (i) => 30 + (i % 330), 365],
  ['vaccination', (i) => 300 + (i % 20), 182],
  ['vaccination', (i) => 120 + (i % 20), 182],
  ['farrier', (i) => i % 60, 56],
  ['deworming', (i) => 30 + (i % 60), 90],
  ['dental', (i) => 200 + (i % 100), 365],
];

/** Entities per Yjs transaction: a few large updates, each one Postgres transaction on the server. */
const CHUNK = 2000;

const BREEDS = ['Arabian', 'Quarter Horse', 'Thoroughbred', 'Appaloosa', 'Morgan', 'Paint', 'Friesian', 'Mustang'];
const COLORS = ['Bay', 'Chestnut', 'Black', 'Grey', 'Palomino', 'Buckskin', 'Roan'];
const GENDERS = ['Mare', 'Stallion', 'Gelding', 'Filly', 'Colt'];
const STATUSES = ['Available', 'In Training', 'Breeding', 'Retired', 'Reserved'];
const NAMES = ['Storm', 'Blaze', 'Dusty', 'Maple', 'Comet', 'Willow', 'Shadow', 'Ginger', 'Apollo', 'Luna', 'Rocket', 'Pepper'];
const METHODS = ['Cash', 'Card', 'ACH', 'Check', 'Other'];

/** The ranch's lists as a person sees them (suppliers are the document's owners). */
export const LISTS = ['horses', 'suppliers', 'buyers', 'sales', 'payments'] as const;
export type ListCounts = Record<(typeof LISTS)[number], number>;

/** How many records each list holds once `seedRanch(doc, size, …)` is in. */
export function seededLists(size: RanchSize): ListCounts {
  return {
    horses: size.horses,
    suppliers: SUPPLIERS,
    buyers: BUYERS,
    sales: Math.min(Math.ceil(size.payments / 10), size.horses),
    payments: size.payments,
  };
}

const SUPPLIERS = 200;
const BUYERS = 1000;

/** Who the seeding device signs in as: the server keeps care entries recorded by their sender ([K1]). */
export type Recorder = { id: string; name: string };

/**
 * A ranch with a long history, written the way devices write it: entities as Y.Maps in the
 * document's collections (shared/doc-layout.ts). The sales and payments are written as a device
 * of layout 2 writes them: the server takes them in as ledger entries and removes them from the
 * document (sync-server/src/ledger/old-layout.ts), so the ranch's sales and payments are in the
 * ledger once the seed is acknowledged. Ten payments per sale, a sale for every
 * second horse, each payment small enough that no sale is paid off, and a year of care
 * entries (5 per horse by default: 50,000 for 10,000 horses). `apply` receives each
 * chunk as one transaction's worth of writes.
 */
export function seedRanch(doc: Y.Doc, size: RanchSize, recorder: Recorder): { horseIds: string[] } {
  const write = (entries: [Collection, string, EntityFields][]) =>
    doc.transact(() => entries.forEach(([collection, id, fields]) => writeEntity(doc, collection, id, fields)));
  const now = new Date('2024-06-01T12:00:00.000Z');
  const lookups = (names: string[]) => names.map((name) => ({ id: newId(), name }));
  const breeds = lookups(BREEDS);
  const colors = lookups(COLORS);
  const genders = lookups(GENDERS);
  const statuses = lookups(STATUSES);
  const owners = Array.from({ length: SUPPLIERS }, (_, i) => ({ id: newId(), firstName: `Owner${i}`, lastName: `Supplier${i}` }));
  const buyers = Array.from({ length: BUYERS }, (_, i) => ({ id: newId(), firstName: `Buyer${i}`, lastName: `Family${i}` }));
  const first: [Collection, string, EntityFields][] = [];
  for (const [collection, items] of [
    ['breeds', breeds],
    ['colors', colors],
    ['genders', genders],
    ['statuses', statuses],
  ] as const) {
    for (const item of items) first.push([collection, item.id, { name: item.name, isActive: true }]);
  }
  for (const owner of owners) {
    first.push([
      'owners',
      owner.id,
      { firstName: owner.firstName, lastName: owner.lastName, phone: '+1 555 0100', email: null, createdAt: now.toISOString() },
    ]);
  }
  for (const buyer of buyers)
    first.push(['buyers', buyer.id, { firstName: buyer.firstName, lastName: buyer.lastName, phone: null, email: null }]);
  write(first);

  const horseIds: string[] = [];
  let batch: [Collection, string, EntityFields][] = [];
  const flush = () => {
    if (batch.length > 0) write(batch);
    batch = [];
  };
  for (let i = 0; i < size.horses; i++) {
    const id = newId();
    horseIds.push(id);
    batch.push([
      'horses',
      id,
      {
        name: `${NAMES[i % NAMES.length]} ${i}`,
        breedId: breeds[i % breeds.length]!.id,
        colorId: colors[i % colors.length]!.id,
        genderId: genders[i % genders.length]!.id,
        statusId: statuses[i % statuses.length]!.id,
        ownerId: i % 3 === 0 ? null : owners[i % owners.length]!.id,
        birthdate: null,
        ageYears: i % 25,
        priceUsd: `${5000 + (i % 400) * 100}.00`,
        photoUrl: null,
        notes: i % 10 === 0 ? 'Good with children; shod in spring.' : null,
      },
    ]);
    if (batch.length >= CHUNK) flush();
  }
  flush();
  const { sales } = seededLists(size);
  const saleIds: string[] = [];
  for (let i = 0; i < sales; i++) {
    const id = newId();
    saleIds.push(id);
    batch.push([
      'sales',
      id,
      {
        horseId: horseIds[i * Math.floor(horseIds.length / sales)]!,
        buyerId: buyers[i % buyers.length]!.id,
        salePrice: '20000.00',
        downPayment: '1000.00',
        termsMonths: 12,
        interestApr: 5,
        scheduleStartDate: '2024-01-15',
        createdAt: now.toISOString(),
      },
    ]);
    if (batch.length >= CHUNK) flush();
  }
  flush();
  for (let i = 0; i < size.payments; i++) {
    batch.push([
      'payments',
      newId(),
      {
        saleId: saleIds[i % saleIds.length]!,
        amount: '150.00',
        date: `2024-${String((i % 12) + 1).padStart(2, '0')}-10`,
        method: METHODS[i % METHODS.length]!,
        memo: null,
        installmentId: null,
        createdAt: now.toISOString(),
      },
    ]);
    if (batch.length >= CHUNK) flush();
  }
  flush();
  // Relative to the day the bench runs, so the bell and the Due soon card show a ranch that
  // keeps up: most care is due later, some within 14 days, some overdue.
  const today = new Date().toISOString().slice(0, 10);
  const perHorse = Math.min(size.careEntriesPerHorse ?? 5, CARE_YEAR.length);
  for (let i = 0; i < horseIds.length; i++) {
    for (const [kind, daysAgo, interval] of CARE_YEAR.slice(0, perHorse)) {
      const doneOn = addDays(today, -daysAgo(i));
      batch.push([
        'careEntries',
        newId(),
        {
          horseId: horseIds[i]!,
          kind,
          doneOn,
          nextDueOn: addDays(doneOn, interval),
          notes: kind === 'farrier' && i % 4 === 0 ? 'Reset front shoes' : null,
          recordedBy: recorder.id,
          recordedByName: recorder.name,
          createdAt: now.toISOString(),
        },
      ]);
      if (batch.length >= CHUNK) flush();
    }
  }
  flush();
  return { horseIds };
}
