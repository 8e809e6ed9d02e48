import { parseFields } from '../../../../shared/entity-shape.ts';
import { isEntityId } from '../../../../shared/ids.ts';
import { RECORD_FIELDS } from '../../../../shared/schemas/records.ts';
import { knownFlags, LEDGER_READ_TABLES, type LedgerFields, type LedgerReadTable } from './ledger-rows.ts';

// Apart from ledger-rows.ts, which the read database imports at the page's start: the record
// check brings Yjs with it (shared/entity-shape.ts), and only the data host pulls.

export type LedgerRowReading =
  | { valid: true; table: LedgerReadTable; row: Record<string, unknown> & LedgerFields }
  | { valid: false; problem: string };

/**
 * The read row of one entry as the device holds it: the record checked by the schema every
 * synced record is checked by (the server's word is not trusted either), in the shape the
 * projection writes for the same record, with `id`, `ledgerSeq` and `flags`. Never throws.
 */
export function ledgerRow(id: unknown, collection: unknown, record: unknown, seq: number | null, flags: unknown): LedgerRowReading {
  if (typeof id !== 'string' || !isEntityId(id)) return { valid: false, problem: 'id: not an entity id' };
  if (!(LEDGER_READ_TABLES as readonly unknown[]).includes(collection)) return { valid: false, problem: 'collection: not read here' };
  const table = collection as LedgerReadTable;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return { valid: false, problem: 'record: not an object' };
  const fields = RECORD_FIELDS[table];
  const strays = Object.keys(record).filter((field) => !fields.includes(field));
  if (strays.length > 0) return { valid: false, problem: `${strays.join(', ')}: not a field of this record` };
  const reading = parseFields(table, id, record as Record<string, never>);
  if (!reading.valid) return { valid: false, problem: reading.problem };
  return { valid: true, table, row: { ...reading.record, ledgerSeq: seq, flags: knownFlags(flags) } };
}
