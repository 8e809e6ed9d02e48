import { isMoneyField, REFERENCES, type Collection, type HistoryChange } from '../../../../shared/index.ts';
import { localDate } from '../../lib/format-date.ts';
import { methodText, moneyText, termsText } from '../sales/sale-display.ts';
import { fieldLabel as screenLabel } from '../sync-notices/notice-fields.ts';

/** [T3] One change of one record: the fields it set, with who made it and when. */
export type HistoryEntry = {
  key: string;
  kind: HistoryChange['kind'];
  collection: Collection;
  entityId: string;
  changes: HistoryChange[];
  who: string;
  serverTime: string;
  deviceTime: string | null;
};

/** Field rows of one change (same commit, step and record) as one entry, newest first as given. */
export function groupChanges(changes: HistoryChange[]): HistoryEntry[] {
  const entries = new Map<string, HistoryEntry>();
  for (const change of changes) {
    const key = `${change.seq}/${change.step}/${change.collection}/${change.entityId}`;
    const entry = entries.get(key);
    if (entry) entry.changes.push(change);
    else
      entries.set(key, {
        key,
        kind: change.kind,
        collection: change.collection,
        entityId: change.entityId,
        changes: [change],
        // A change the server made itself (putting back what a device may not write).
        who: change.userId === null ? 'Ranch server' : (change.userName ?? 'A removed user'),
        serverTime: change.serverTime,
        deviceTime: change.deviceTime,
      });
  }
  return [...entries.values()];
}

/** The label the screens give the field (sync-notices/notice-fields.ts); the field's own name for one they do not show. */
export const fieldLabel = (collection: Collection, field: string) => screenLabel(collection, field) ?? field;

/** Names of records a change refers to, by id (what the device holds). */
export type ReferenceNames = Map<string, string>;

const MONEY = new Set(['priceUsd', 'salePrice', 'downPayment', 'amount']);
const DATES = new Set(['birthdate', 'scheduleStartDate', 'date', 'doneOn', 'nextDueOn', 'createdAt']);

/** A field's value as the screens show it; 'empty' when it had none. */
export function valueText(collection: Collection, field: string, value: unknown, names: ReferenceNames): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (typeof value === 'boolean') return field === 'isActive' ? (value ? 'Active' : 'Inactive') : value ? 'Yes' : 'No';
  const text = String(value);
  if (MONEY.has(field)) return moneyText(text);
  if (DATES.has(field)) return localDate(text);
  if (field === 'termsMonths') return termsText(Number(value));
  if (field === 'method') return methodText(text);
  if (field === 'interestApr') return `${text}%`;
  if (field === 'ageYears') return `${text} years`;
  if (field === 'photoUrl') return 'a photo';
  if (REFERENCES[collection]?.[field]) return names.get(text) ?? 'a removed record';
  return text;
}

/** When, in the viewer's locale. */
export const timeText = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
};

/** " — <name>, <server time> (device: <time>)": who made a change and when. */
export function byline(entry: HistoryEntry): string {
  const device = entry.deviceTime ? ` (device: ${timeText(entry.deviceTime)})` : '';
  return ` — ${entry.who}, ${timeText(entry.serverTime)}${device}`;
}

const NOUNS: Record<Collection, string> = {
  horses: 'Horse',
  owners: 'Supplier',
  buyers: 'Buyer',
  sales: 'Sale',
  payments: 'Payment',
  breeds: 'Breed',
  colors: 'Color',
  genders: 'Gender',
  statuses: 'Status',
  careEntries: 'Care entry',
  corrections: 'Correction',
};

export const collectionNoun = (collection: Collection) => NOUNS[collection];

/**
 * [T6] " at the same time as Bob Jones (not kept)" after a change that met another person's
 * change of the field, neither having seen the other: '(kept)' or '(not kept)' as the merge
 * left it; a money field still open says '(not chosen yet)', never settled. Empty otherwise.
 */
export function conflictMarkText(change: HistoryChange): string {
  const mark = change.conflict;
  if (!mark) return '';
  const who = mark.otherUserId === null ? 'the ranch server' : (mark.otherUserName ?? 'a removed user');
  const outcome = mark.open && isMoneyField(change.collection, change.field) ? 'not chosen yet' : mark.kept ? 'kept' : 'not kept';
  return ` at the same time as ${who} (${outcome})`;
}

/**
 * The lines of one entry, without the byline: "Price changed from $1,500 to $1,800" per
 * field, or "Created" / "Deleted" (with the record's kind when it is not the record shown,
 * a sale's payment: "Payment of $500 created").
 */
export function entryLines(entry: HistoryEntry, names: ReferenceNames, shown: Collection): string[] {
  if (entry.kind !== 'update') {
    const verb = entry.kind === 'create' ? 'Created' : 'Deleted';
    if (entry.collection === shown) return [verb];
    const amount = entry.changes.find((change) => change.field === 'amount');
    const value = amount && (entry.kind === 'create' ? amount.after : amount.before);
    return [`${collectionNoun(entry.collection)}${value ? ` of ${moneyText(String(value))}` : ''} ${verb.toLowerCase()}`];
  }
  return entry.changes.map(
    (change) =>
      `${fieldLabel(entry.collection, change.field)} changed from ${valueText(entry.collection, change.field, change.before, names)} to ${valueText(entry.collection, change.field, change.after, names)}${conflictMarkText(change)}`,
  );
}
