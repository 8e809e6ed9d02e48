import {
  CARE_KIND_LABELS,
  REFERENCES,
  type CareKind,
  type Collection,
  type CorrectionKind,
  type JsonValue,
} from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import type { GroupedCollection } from '../../data/record-groups.ts';
import { contactName } from '../contacts/contact-name.ts';
import { ageText, priceText } from '../horses/horse-display.ts';
import { dateText, methodText, moneyText, termsText } from '../sales/sale-display.ts';

/** Where names are read: the read model, and the document for the links Dexie has no index for (payment → sale, care entry → horse). */
export type NameSource = { db: RanchDb; groupOf(collection: GroupedCollection, id: string): Promise<string | null> };

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const contactText = (fields: Fields | undefined) => fields && text(contactName(fields));

/** A payment's row in its sale's, or a care entry's in its horse's (record-groups.ts). */
async function groupedRow(source: NameSource, collection: GroupedCollection, id: string, group: unknown): Promise<Fields | undefined> {
  const key = text(group) ?? text(await source.groupOf(collection, id));
  if (!key) return undefined;
  const rows =
    collection === 'payments' ? (await source.db.salePayments.get(key))?.payments : (await source.db.horseCare.get(key))?.entries;
  return rows?.find((record) => record.id === id);
}

/** A sale as the screens name it: 'Sale of <horse> to <buyer>'. */
async function saleName(source: NameSource, fields: Fields): Promise<string> {
  const [horse, buyer] = await Promise.all([
    text(fields.horseId) ? source.db.horses.get(fields.horseId as string) : undefined,
    text(fields.buyerId) ? source.db.buyers.get(fields.buyerId as string) : undefined,
  ]);
  return `Sale of ${horse?.name ?? 'Unknown horse'} to ${contactText(buyer) ?? 'Unknown buyer'}`;
}

/**
 * The record's display name: its row in the read model with `known` laid over it (what the
 * server just wrote, newer than a row the projection has not rewritten yet); undefined when
 * neither knows it (a record that never was valid is in no table).
 */
export async function recordName(source: NameSource, collection: Collection, id: string, known: Fields = {}): Promise<string | undefined> {
  const { db } = source;
  switch (collection) {
    case 'horses':
      return text(known.name) ?? text((await db.horses.get(id))?.name);
    case 'owners':
    case 'buyers': {
      const row = await db[collection].get(id);
      return contactText(row ? { ...row, ...known } : known);
    }
    case 'sales': {
      const row = await db.sales.get(id);
      const fields: Fields = { ...row, ...known };
      return row || (text(fields.horseId) && text(fields.buyerId)) ? saleName(source, fields) : undefined;
    }
    case 'payments': {
      const row = (await db.payments.get(id)) ?? (await groupedRow(source, 'payments', id, known.saleId));
      const fields: Fields = { ...row, ...known };
      if (!text(fields.amount)) return undefined;
      const sale = text(fields.saleId) ? await db.sales.get(fields.saleId as string) : undefined;
      const of = sale ? ` (${(await saleName(source, sale)).replace(/^Sale/, 'sale')})` : '';
      return `Payment of ${moneyText(fields.amount as string)}${of}`;
    }
    case 'careEntries': {
      const fields = { ...(await groupedRow(source, 'careEntries', id, known.horseId)), ...known };
      const kind = CARE_KIND_LABELS[fields.kind as CareKind];
      if (!kind) return undefined;
      const horse = text(fields.horseId) ? await recordName(source, 'horses', fields.horseId as string) : undefined;
      return horse ? `${kind} of ${horse}` : kind;
    }
    case 'corrections': {
      const fields: Fields = { ...(await db.corrections.get(id)), ...known };
      const what = { void: 'Void of a payment', cancel: 'Cancellation', refund: 'Refund' }[fields.kind as CorrectionKind];
      if (!what) return undefined;
      const sale = text(fields.saleId) ? await db.sales.get(fields.saleId as string) : undefined;
      return sale ? `${what} (${(await saleName(source, sale)).replace(/^Sale/, 'sale')})` : what;
    }
    default:
      return text(known.name) ?? text((await db[collection].get(id))?.name);
  }
}

const quoted = (value: string) => `'${value}'`;

/** A field's value as the screens show it (money, terms, dates, names of what it refers to). */
export async function valueText(source: NameSource, collection: Collection, field: string, value: JsonValue): Promise<string> {
  const target = REFERENCES[collection]?.[field];
  if (target) {
    if (value === null) return field === 'ownerId' ? 'Ranch' : 'none';
    return (
      (typeof value === 'string' && (await recordName(source, target, value))) ||
      `a ${target === 'owners' ? 'supplier' : 'record'} that no longer exists`
    );
  }
  try {
    switch (field) {
      case 'priceUsd':
        return priceText(value as string | null);
      case 'salePrice':
      case 'downPayment':
      case 'amount':
        return moneyText(value as string | null);
      case 'termsMonths':
        return typeof value === 'number' ? termsText(value) : String(value);
      case 'interestApr':
        return typeof value === 'number' ? `${value}%` : 'none';
      case 'ageYears':
        return ageText(typeof value === 'number' ? value : null, null);
      case 'birthdate':
      case 'scheduleStartDate':
      case 'date':
      case 'doneOn':
      case 'nextDueOn':
      case 'createdAt':
        return dateText(value as string | null);
      case 'kind':
        return CARE_KIND_LABELS[value as CareKind] ?? String(value);
      case 'method':
        return methodText(String(value));
      case 'isActive':
        return value === true ? 'Active' : 'Inactive';
      case 'photoUrl':
        return value ? 'its earlier photo' : 'no photo';
      case 'phone':
      case 'email':
        return value === null || value === '' ? 'N/A' : String(value);
    }
  } catch {
    // A value the screens' helpers cannot format is shown as it is.
  }
  if (value === null || value === '') return 'empty';
  return typeof value === 'string' ? quoted(value) : String(value);
}
