import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { addDays, careDue, salesPastDue } from './care.ts';
import { writeEntity } from './doc-layout.ts';
import { deleteWithDependents, referencesTo } from './references.ts';
import { careEntryRecord, careVisitInput, type CareEntry } from './schemas/care.ts';
import { parseFields } from './entity-shape.ts';

const HORSE = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';
const USER = '00000000-0000-4000-8000-0000000000ff';
const TODAY = '2026-06-15';

let next = 0;
function entry(fields: Partial<CareEntry>): CareEntry {
  next += 1;
  return {
    id: `00000000-0000-4000-8000-${String(next).padStart(12, '0')}`,
    horseId: HORSE,
    kind: 'coggins',
    doneOn: '2025-06-01',
    nextDueOn: null,
    notes: null,
    recordedBy: USER,
    recordedByName: 'Ann Rider',
    createdAt: '2025-06-01T10:00:00.000Z',
    ...fields,
  };
}

describe('care entries', () => {
  it('[K2] one visit names several horses; the next due date is optional and not before the date done', () => {
    const visit = careVisitInput.parse({ horseIds: [HORSE, OTHER], kind: 'farrier', doneOn: '2026-06-01', nextDueOn: '', notes: ' ' });
    expect(visit).toEqual({ horseIds: [HORSE, OTHER], kind: 'farrier', doneOn: '2026-06-01', nextDueOn: null, notes: null });
    const messages = (input: unknown) => careVisitInput.safeParse(input).error?.issues.map((issue) => issue.message);
    expect(messages({ horseIds: [], kind: 'farrier', doneOn: '2026-06-01' })).toEqual(['Choose at least one horse']);
    expect(messages({ horseIds: [HORSE, HORSE], kind: 'farrier', doneOn: '2026-06-01' })).toEqual(['A horse is named twice']);
    expect(messages({ horseIds: [HORSE], kind: '', doneOn: '' })).toEqual(['Care type is required', 'Date done is required']);
    expect(messages({ horseIds: [HORSE], kind: 'shoeing', doneOn: '2026-06-01' })).toEqual([
      'Care type must be one of vaccination, coggins, farrier, deworming, vet, dental, other',
    ]);
    expect(messages({ horseIds: [HORSE], kind: 'farrier', doneOn: '2026-06-01', nextDueOn: '2026-05-01' })).toEqual([
      'Next due date cannot be before the date done',
    ]);
  });

  it('[K1] a stored entry needs who recorded it and when; the check blames the field at fault', () => {
    const { id: _id, ...fields } = entry({});
    expect(careEntryRecord.safeParse(fields).success).toBe(true);
    expect(parseFields('careEntries', HORSE, { ...fields, recordedBy: 'someone' })).toMatchObject({ valid: false, fields: ['recordedBy'] });
    expect(parseFields('careEntries', HORSE, { ...fields, nextDueOn: '2020-01-01' })).toMatchObject({
      valid: false,
      fields: ['nextDueOn'],
    });
  });

  it('[K4] the latest entry of each horse and kind decides what is due: overdue, due within 14 days, or nothing', () => {
    const entries = [
      entry({ kind: 'coggins', doneOn: '2025-06-01', nextDueOn: '2026-06-01' }),
      entry({ kind: 'farrier', doneOn: '2026-05-01', nextDueOn: '2026-06-29' }),
      entry({ kind: 'dental', doneOn: '2026-01-01', nextDueOn: '2026-06-30' }),
      entry({ kind: 'vaccination', doneOn: '2025-01-01', nextDueOn: '2025-07-01' }),
      entry({ kind: 'vaccination', doneOn: '2025-07-02', nextDueOn: null }),
      entry({ horseId: OTHER, kind: 'coggins', doneOn: '2026-06-10', nextDueOn: '2026-06-15' }),
    ];
    expect(
      careDue(entries, TODAY).map(({ horseId, kind, dueOn, overdue }) => [horseId === HORSE ? 'A' : 'B', kind, dueOn, overdue]),
    ).toEqual([
      ['A', 'coggins', '2026-06-01', true],
      ['B', 'coggins', '2026-06-15', false],
      ['A', 'farrier', '2026-06-29', false],
    ]);
    // Recording the Coggins test again clears it.
    const recorded = [...entries, entry({ kind: 'coggins', doneOn: TODAY, nextDueOn: '2027-06-15' })];
    expect(careDue(recorded, TODAY).map((due) => due.kind)).toEqual(['coggins', 'farrier']);
    expect(addDays('2026-12-25', 14)).toBe('2027-01-08');
  });

  it('[K4] a sale with an installment past due is listed by the sales rule, and clears when paid', () => {
    const sale = {
      id: '00000000-0000-4000-8000-000000000051',
      horseId: HORSE,
      buyerId: OTHER,
      salePrice: '1200.00',
      downPayment: '0',
      termsMonths: 12,
      interestApr: null,
      scheduleStartDate: '2026-04-01',
      createdAt: '2026-04-01T00:00:00.000Z',
    };
    expect(salesPastDue([sale], () => 10_000, TODAY)).toEqual([
      {
        type: 'sale',
        key: `sale:${sale.id}:2026-05-01`,
        saleId: sale.id,
        horseId: HORSE,
        buyerId: OTHER,
        pastDueCents: 20_000,
        since: '2026-05-01',
      },
    ]);
    expect(salesPastDue([sale], () => 30_000, TODAY)).toEqual([]);
  });

  it('[K6] deleting a horse deletes its care entries with it; they never keep it from being deleted', () => {
    const doc = new Y.Doc();
    const [a, b] = [entry({}), entry({ horseId: OTHER })];
    doc.transact(() => {
      writeEntity(doc, 'horses', HORSE, { name: 'A' });
      writeEntity(doc, 'horses', OTHER, { name: 'B' });
      writeEntity(doc, 'careEntries', a.id, a);
      writeEntity(doc, 'careEntries', b.id, b);
    });
    expect(referencesTo(doc, 'horses', HORSE)).toEqual([]);
    doc.transact(() => deleteWithDependents(doc, 'horses', HORSE));
    expect([...doc.getMap('horses').keys()]).toEqual([OTHER]);
    expect([...doc.getMap('careEntries').keys()]).toEqual([b.id]);
  });
});
