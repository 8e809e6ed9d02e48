// Not shared/index.ts: the page imports this at its start, and the schemas (zod) come later.
import { isEntityId, newId } from '../../../../shared/ids.ts';
import { isLedgerRepository } from '../ledger/ledger-rows.ts';
import { type RanchWrites, WRITE_METHODS } from '../ranch-writes.ts';

/** The repositories whose writes go through the outbox: every one but the photo outbox's own queue. */
export type IntentRepository = Exclude<keyof RanchWrites, 'photos'>;

/**
 * One write a screen asked for, as the device's outbox keeps it until its change is stored
 * in the document (docs/architecture.md "The device's write path"). `seq` is given by
 * IndexedDB: the order the writes were asked for, which is the order they are applied in.
 * `id` is the intent's own, made where it was asked for. `creates` are the ids of the records
 * it makes, minted with the intent, so applying it a second time (a crash after the change
 * was stored and before the intent was removed) makes nothing anew. `answered`: the write
 * was answered before it was applied (an edit an earlier app staged, db.ts version 16), so
 * a refusal when it is applied becomes a notice.
 *
 * A sale, payment or correction is a ledger entry (docs/sync-rules.md §7): once applied, its
 * intent keeps the record it pushes (`entry`; its id is `creates[0]`, its collection the
 * repository) and stays until the server has answered it; one the server refused keeps the
 * reason (`refused`) until the person dismisses it ([S19]).
 */
export type WriteIntent = {
  seq?: number;
  id: string;
  repository: IntentRepository;
  method: string;
  args: unknown[];
  creates: string[];
  answered: boolean;
  createdAt: string;
  entry?: Record<string, unknown>;
  refused?: string;
};

/** A method that makes records: how many arguments it takes before the new ids, and the collection they go in. */
type CreateShape = { arity: number; many: boolean; collection(args: unknown[]): string };

const single = (collection: string, arity = 1): CreateShape => ({ arity, many: false, collection: () => collection });

const CREATES: Record<string, CreateShape> = {
  'horses.create': single('horses'),
  'owners.create': single('owners'),
  'buyers.create': single('buyers'),
  'sales.create': single('sales'),
  'payments.create': single('payments'),
  'lookups.create': { arity: 2, many: false, collection: (args) => String(args[0]) },
  // One entry per horse of the visit.
  'careEntries.create': { arity: 2, many: true, collection: () => 'careEntries' },
  'corrections.voidPayment': single('corrections', 2),
  'corrections.cancelSale': single('corrections', 2),
  'corrections.refund': single('corrections', 2),
};

/** Deletes: applying one whose record is gone changes nothing and refuses nothing. */
const REMOVES: ReadonlySet<string> = new Set(['horses.remove', 'owners.remove', 'buyers.remove', 'careEntries.remove']);

export function isIntentMethod(repository: string, method: string): repository is IntentRepository {
  if (repository === 'photos' || !Object.hasOwn(WRITE_METHODS, repository)) return false;
  return (WRITE_METHODS[repository as IntentRepository] as readonly string[]).includes(method);
}

/** How many records the call makes: one, or one per horse of a care visit (as many as the input names). */
function createCount(shape: CreateShape, args: unknown[]): number {
  if (!shape.many) return 1;
  const horseIds = (args[0] as { horseIds?: unknown } | null | undefined)?.horseIds;
  return Array.isArray(horseIds) ? horseIds.length : 0;
}

/** A new intent for `repository.method(...args)`, with the ids of the records it makes. */
export function makeIntent(repository: IntentRepository, method: string, args: unknown[], answered = false): WriteIntent {
  const shape = CREATES[`${repository}.${method}`];
  const creates = shape ? Array.from({ length: createCount(shape, args) }, () => newId()) : [];
  return { id: newId(), repository, method, args, creates, answered, createdAt: new Date().toISOString() };
}

/** What the write answers once applied: a create its new id (a care visit its ids); else the repository's answer. */
export function answerOf(intent: WriteIntent, applied: unknown): unknown {
  const shape = CREATES[`${intent.repository}.${intent.method}`];
  if (!shape) return applied;
  return shape.many ? intent.creates : intent.creates[0];
}

/**
 * The repository call an intent makes: a create's arguments followed by its minted id (or
 * ids); any other call's as asked.
 */
export function callOf(intent: WriteIntent): unknown[] {
  const shape = CREATES[`${intent.repository}.${intent.method}`];
  if (!shape) return intent.args;
  const args = Array.from({ length: shape.arity }, (_, index) => intent.args[index]);
  return [...args, shape.many ? intent.creates : intent.creates[0]];
}

/** Whether an intent already took effect, or has none to take: a create whose first record is in `has`, a delete whose record is not. */
export function alreadyApplied(intent: WriteIntent, has: (collection: string, id: string) => boolean): boolean {
  if (intent.entry !== undefined) return true;
  const key = `${intent.repository}.${intent.method}`;
  const shape = CREATES[key];
  if (shape) {
    const first = intent.creates[0];
    return first !== undefined && has(shape.collection(intent.args), first);
  }
  if (REMOVES.has(key)) return typeof intent.args[0] === 'string' && !has(intent.repository, intent.args[0]);
  return false;
}

/**
 * An intent as read back from the outbox, checked: any page of the origin may write the
 * table, so nothing of it is trusted. A write the repositories offer, its arguments a list,
 * the ids it makes canonical and as many as the call makes. The repository checks the
 * arguments themselves when the call is made, as it checks every call.
 */
export function checkIntent(row: unknown): WriteIntent {
  if (typeof row !== 'object' || row === null) throw new Error('outbox: not an intent');
  const { seq, id, repository, method, args, creates, answered, createdAt, entry, refused } = row as Record<string, unknown>;
  if (typeof id !== 'string' || !isEntityId(id)) throw new Error('outbox: the intent has no id');
  if (typeof repository !== 'string' || typeof method !== 'string' || !isIntentMethod(repository, method)) {
    throw new Error(`outbox: no such write: ${String(repository)}.${String(method)}`);
  }
  if (!Array.isArray(args)) throw new Error('outbox: the arguments are not a list');
  if (!Array.isArray(creates) || !creates.every((made) => typeof made === 'string' && isEntityId(made))) {
    throw new Error('outbox: the ids it makes are not ids');
  }
  const shape = CREATES[`${repository}.${method}`];
  if (creates.length !== (shape ? createCount(shape, args) : 0)) throw new Error('outbox: not as many ids as records it makes');
  return {
    ...(typeof seq === 'number' ? { seq } : {}),
    id,
    repository,
    method,
    args,
    creates,
    answered: answered === true,
    createdAt: typeof createdAt === 'string' ? createdAt : '',
    ...(isLedgerRepository(repository) && isRecord(entry) ? { entry } : {}),
    ...(typeof refused === 'string' ? { refused } : {}),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
