import type { DBCore, DBCoreMutateRequest, DBCoreMutateResponse, DBCoreTable, Middleware } from 'dexie';
import { isLedgerRow, LEDGER_READ_TABLES } from './ledger-rows.ts';

type Row = Record<string, unknown>;

/** `table:id` of waiting rows being withdrawn (withdrawWaitingRow): their delete passes. */
const withdrawing = new Set<string>();

/**
 * Deletes the row of an entry this device recorded that the server refused ([S19],
 * ledger/push.ts): the one delete of a ledger row that passes, and only while it still
 * waits (`ledgerSeq` null). Call it inside the caller's transaction.
 */
export async function withdrawWaitingRow(table: { name: string; delete(key: string): Promise<void> }, id: string): Promise<void> {
  const key = `${table.name}:${id}`;
  withdrawing.add(key);
  try {
    await table.delete(id);
  } finally {
    withdrawing.delete(key);
  }
}

/** The indexes of `req`'s rows whose key holds a ledger row now, for a write that does not come from the ledger. */
async function heldByLedger(name: string, table: DBCoreTable, req: DBCoreMutateRequest): Promise<Set<number>> {
  const held = new Set<number>();
  let keys: unknown[];
  let asked: number[];
  if (req.type === 'delete') {
    keys = req.keys;
    asked = keys.map((_, i) => i);
  } else if ((req.type === 'put' || req.type === 'add') && !('updates' in req && req.updates) && !('criteria' in req && req.criteria)) {
    asked = [];
    keys = [];
    req.values.forEach((value: unknown, i: number) => {
      if (isLedgerRow(value)) return; // the ledger's own write (a pulled entry, a pending one)
      asked.push(i);
      keys.push(req.keys?.[i] ?? (value as Row | null)?.id);
    });
  } else return held;
  if (keys.length === 0) return held;
  const existing = await table.getMany({ trans: req.trans, keys });
  existing.forEach((row: unknown, i: number) => {
    const withdrawn = req.type === 'delete' && withdrawing.has(`${name}:${String(keys[i])}`) && (row as Row).ledgerSeq === null;
    if (isLedgerRow(row) && !withdrawn) held.add(asked[i]!);
  });
  return held;
}

/** `req` without the rows at `held`; the response mapped back to the caller's indexes (a skipped row answers its key). */
async function mutateWithout(table: DBCoreTable, req: DBCoreMutateRequest, held: Set<number>): Promise<DBCoreMutateResponse> {
  const kept: number[] = [];
  const count = req.type === 'delete' ? req.keys.length : req.type === 'deleteRange' ? 0 : req.values.length;
  for (let i = 0; i < count; i++) if (!held.has(i)) kept.push(i);
  const keyOf = (i: number): unknown =>
    req.type === 'delete' ? req.keys[i] : req.type === 'deleteRange' ? undefined : (req.keys?.[i] ?? (req.values[i] as Row | null)?.id);
  if (kept.length === 0) {
    const results = Array.from({ length: count }, (_, i) => keyOf(i));
    return { numFailures: 0, failures: {}, results, lastResult: results[results.length - 1] };
  }
  let down: DBCoreMutateRequest;
  if (req.type === 'delete') down = { ...req, keys: kept.map((i) => req.keys[i]) };
  else if (req.type === 'put' || req.type === 'add')
    down = { ...req, values: kept.map((i) => req.values[i]), ...(req.keys ? { keys: kept.map((i) => req.keys![i]) } : {}) };
  else return table.mutate(req);
  const answer = await table.mutate(down);
  const results = Array.from({ length: count }, (_, i) => keyOf(i));
  const failures: Record<number, Error> = {};
  kept.forEach((original, i) => {
    if (answer.results) results[original] = answer.results[i];
    const failure = answer.failures[i];
    if (failure) failures[original] = failure;
  });
  return { numFailures: answer.numFailures, failures, results, lastResult: answer.lastResult };
}

/**
 * Dexie middleware: a row that came from the ledger (it has `ledgerSeq`: a pulled entry, or
 * one this device recorded and has not pushed yet) is never overwritten or deleted by a
 * write that does not (the projection from the document, its reconcile, its rows written
 * apart, a page's early rows). The ledger is the truth for sales, payments and corrections;
 * the document's copy of one (a layout-2 document) only shows until the ledger has it.
 * Checked in the write's own transaction, so a pull committing meanwhile is never undone.
 */
export const keptLedgerRows: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'KeptLedgerRows',
  level: -1,
  create: (down) => ({
    ...down,
    table: (name) => {
      const table = down.table(name);
      if (!(LEDGER_READ_TABLES as readonly string[]).includes(name)) return table;
      return {
        ...table,
        mutate: async (req) => {
          const held = await heldByLedger(name, table, req);
          return held.size === 0 ? table.mutate(req) : mutateWithout(table, req, held);
        },
      };
    },
  }),
};
