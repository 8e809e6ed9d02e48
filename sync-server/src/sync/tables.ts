import type { Collection } from '../../../shared/index.ts';

/** How a document field is stored in its projection column, and read back. */
export type ColumnKind = 'text' | 'uuid' | 'int' | 'number' | 'money' | 'date' | 'timestamp' | 'bool';
export type Column = { field: string; column: string; kind: ColumnKind };
export type TableSpec = { table: string; columns: Column[] };

const col = (field: string, column: string, kind: ColumnKind): Column => ({ field, column, kind });
const lookup = (table: string): TableSpec => ({
  table,
  columns: [col('id', 'id', 'uuid'), col('name', 'name', 'text'), col('isActive', 'is_active', 'bool')],
});
const contact = [
  col('id', 'id', 'uuid'),
  col('firstName', 'first_name', 'text'),
  col('lastName', 'last_name', 'text'),
  col('phone', 'phone', 'text'),
  col('email', 'email', 'text'),
];

/** The relational projection of every collection (docs/architecture.md "Postgres"): the fields of [Y3] as columns. */
export const TABLES: Record<Collection, TableSpec> = {
  horses: {
    table: 'horses',
    columns: [
      col('id', 'id', 'uuid'),
      col('name', 'name', 'text'),
      col('breedId', 'breed_id', 'uuid'),
      col('colorId', 'color_id', 'uuid'),
      col('genderId', 'gender_id', 'uuid'),
      col('statusId', 'status_id', 'uuid'),
      col('ownerId', 'owner_id', 'uuid'),
      col('birthdate', 'birthdate', 'date'),
      col('ageYears', 'age_years', 'int'),
      col('priceUsd', 'price_usd', 'money'),
      col('photoUrl', 'photo_url', 'text'),
      col('notes', 'notes', 'text'),
    ],
  },
  owners: { table: 'owners', columns: [...contact, col('createdAt', 'created_at', 'timestamp')] },
  buyers: { table: 'buyers', columns: contact },
  sales: {
    table: 'sales',
    columns: [
      col('id', 'id', 'uuid'),
      col('horseId', 'horse_id', 'uuid'),
      col('buyerId', 'buyer_id', 'uuid'),
      col('salePrice', 'sale_price', 'money'),
      col('downPayment', 'down_payment', 'money'),
      col('termsMonths', 'terms_months', 'int'),
      col('interestApr', 'interest_apr', 'number'),
      col('scheduleStartDate', 'schedule_start_date', 'date'),
      col('previousStatusId', 'previous_status_id', 'uuid'),
      col('createdAt', 'created_at', 'timestamp'),
    ],
  },
  payments: {
    table: 'payments',
    columns: [
      col('id', 'id', 'uuid'),
      col('saleId', 'sale_id', 'uuid'),
      col('installmentId', 'installment_id', 'uuid'),
      col('amount', 'amount', 'money'),
      col('date', 'date', 'date'),
      col('method', 'method', 'text'),
      col('memo', 'memo', 'text'),
      col('createdAt', 'created_at', 'timestamp'),
    ],
  },
  breeds: lookup('breeds'),
  colors: lookup('colors'),
  genders: lookup('genders'),
  statuses: lookup('statuses'),
  careEntries: {
    table: 'care_entries',
    columns: [
      col('id', 'id', 'uuid'),
      col('horseId', 'horse_id', 'uuid'),
      col('kind', 'kind', 'text'),
      col('doneOn', 'done_on', 'date'),
      col('nextDueOn', 'next_due_on', 'date'),
      col('notes', 'notes', 'text'),
      col('recordedBy', 'recorded_by', 'uuid'),
      col('recordedByName', 'recorded_by_name', 'text'),
      col('createdAt', 'created_at', 'timestamp'),
    ],
  },
  corrections: {
    table: 'corrections',
    columns: [
      col('id', 'id', 'uuid'),
      col('kind', 'kind', 'text'),
      col('saleId', 'sale_id', 'uuid'),
      col('paymentId', 'payment_id', 'uuid'),
      col('amount', 'amount', 'money'),
      col('date', 'date', 'date'),
      col('method', 'method', 'text'),
      col('reason', 'reason', 'text'),
      col('createdAt', 'created_at', 'timestamp'),
    ],
  },
};

/** SQL expression reading a column back as the document stores the field. */
export function selectExpression({ column: name, field, kind }: Column, alias?: string): string {
  const column = alias ? `${alias}.${name}` : name;
  const value =
    {
      money: `${column}::text`,
      date: `${column}::text`,
      number: `${column}::float8`,
      timestamp: `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    }[kind as string] ?? column;
  return `${value} as "${field}"`;
}

/** `select` list giving API-shaped rows ([Y3] field names) for a collection. */
export function selectList(collection: Collection, alias?: string): string {
  return TABLES[collection].columns.map((column) => selectExpression(column, alias)).join(', ');
}
