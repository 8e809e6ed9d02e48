import { isEntityId, isLedgerCollection, LEDGER_FLAGS } from '../../../shared/index.ts';
import { checkRecord } from '../ledger/entries.ts';

type LedgerRow = {
  seq?: unknown;
  id?: unknown;
  collection?: unknown;
  record?: unknown;
  recorded_by?: unknown;
  received_at?: unknown;
  flags?: unknown;
  effects_pending?: unknown;
};

const isTime = (value: unknown) => typeof value === 'string' && value.length <= 40 && !Number.isNaN(Date.parse(value));

/**
 * A ledger row of a backup, checked before it is restored (N4), as a push is checked
 * (ledger/entries.ts): its id a UUID, its record its collection's fields passing the shared
 * record schema (written back as the schema reads it), its seq a positive whole number, its
 * flags known ones. A row that fails is left out and said so; the file is untrusted input,
 * and the server never wrote such a row.
 */
export function checkedLedgerRow(json: string): { json: string } | { refused: string } {
  let row: LedgerRow;
  try {
    row = JSON.parse(json) as LedgerRow;
  } catch {
    return { refused: 'Left out a ledger row that is not JSON' };
  }
  // Printed to the operator's terminal: an id only, never the file's text.
  if (typeof row.id !== 'string' || !isEntityId(row.id)) return { refused: 'Left out a ledger entry without a valid id' };
  const refused = (why: string) => ({ refused: `Left out ledger entry ${row.id}: ${why}` });
  if (typeof row.seq !== 'number' || !Number.isSafeInteger(row.seq) || row.seq < 1)
    return refused('its seq is not a positive whole number');
  if (typeof row.record !== 'object' || row.record === null || Array.isArray(row.record)) return refused('it has no record');
  if (!isLedgerCollection(row.collection)) return refused('its collection is not one of the ledger');
  const checked = checkRecord({ id: row.id, collection: row.collection, record: row.record as Record<string, unknown> });
  if ('problem' in checked) return refused(`its record is not valid (${checked.problem})`);
  if (row.recorded_by !== null && (typeof row.recorded_by !== 'string' || !isEntityId(row.recorded_by)))
    return refused('who recorded it is not an id');
  if (!isTime(row.received_at)) return refused('when it was received is not a time');
  if (!Array.isArray(row.flags) || !row.flags.every((flag) => typeof flag === 'string' && Object.hasOwn(LEDGER_FLAGS, flag))) {
    return refused('its flags are not the ledger flags');
  }
  if (typeof row.effects_pending !== 'boolean') return refused('effects_pending is not true or false');
  return { json: JSON.stringify({ ...row, record: checked.record }) };
}
