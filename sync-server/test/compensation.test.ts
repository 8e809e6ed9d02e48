import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { collectionMap, deleteEntity, getEntity, newId, writeEntity, type Collection, type JsonValue } from '../../shared/index.ts';
import {
  applyCompensations,
  costOf,
  noticesOf,
  planCompensations,
  type LastValid,
  type LastValidSource,
} from '../src/sync/compensation.ts';
import { entityKey } from '../src/sync/references.ts';
import { checkEntity } from '../src/sync/validation.ts';
import { everything, observeChange, RANCH, storedRanch } from './support/memory-ranch.ts';

/**
 * The compensation planner (docs/sync-rules.md) on a plain Y.Doc, with last valid states from
 * a MemoryDocumentStore: no server, no socket, no Postgres.
 */
type Ranch = Awaited<ReturnType<typeof storedRanch>>;

async function planned(
  edit: (doc: Y.Doc, ids: Ranch['ids']) => void,
  options: { lastValid?: LastValid; before?: (ranch: Ranch) => Promise<void> } = {},
) {
  const ranch = await storedRanch();
  await options.before?.(ranch);
  const asked: string[] = [];
  const source: LastValidSource = (collection, ids) => {
    asked.push(...ids.map((id) => entityKey(collection, id)));
    return ranch.store.lastValid(collection, ids);
  };
  const context = observeChange(ranch.doc, ranch.references, (doc) => edit(doc, ranch.ids));
  const plans = await planCompensations(ranch.doc, context, ranch.references, source, options.lastValid);
  const notices = noticesOf(plans, context.changes);
  const cost = costOf(plans, context.changes);
  ranch.doc.transact(() => applyCompensations(ranch.doc, plans));
  return { ...ranch, plans, notices, cost, asked };
}

const valid = (doc: Y.Doc, collection: Collection, id: string) => checkEntity(doc, collection, id).state === 'valid';

describe('compensation planner', () => {
  it('plans nothing for a valid edit, and asks the store nothing', async () => {
    const { plans, asked, doc, ids } = await planned((doc, ids) => collectionMap(doc, 'horses').get(ids.horse)!.set('name', 'Comet'));
    expect(plans).toEqual([]);
    expect(asked).toEqual([]);
    expect(getEntity(doc, 'horses', ids.horse)?.name).toBe('Comet');
  });

  it('writes an invalid field of a valid entity back to its last valid value, and tells the sender', async () => {
    const { plans, notices, doc, ids } = await planned((doc, ids) => collectionMap(doc, 'horses').get(ids.horse)!.set('name', ''));
    expect(plans).toMatchObject([
      { kind: 'write', collection: 'horses', id: ids.horse, fields: { name: 'Star' }, drop: [], restored: false },
    ]);
    expect(notices).toMatchObject([{ collection: 'horses', id: ids.horse, action: 'reverted', fields: { name: 'Star' } }]);
    expect(valid(doc, 'horses', ids.horse)).toBe(true);
  });

  it('takes the last valid state from earlier in the batch over the store', async () => {
    const lastValid: LastValid = new Map();
    const { plans } = await planned((doc, ids) => collectionMap(doc, 'horses').get(ids.horse)!.set('name', ''), {
      lastValid,
      before: async ({ doc, ids }) => {
        lastValid.set(entityKey('horses', ids.horse), { ...getEntity(doc, 'horses', ids.horse), name: 'Renamed in this batch' });
      },
    });
    expect(plans).toMatchObject([{ kind: 'write', fields: { name: 'Renamed in this batch' } }]);
  });

  it('removes a new entity that was never valid', async () => {
    const id = newId();
    const { plans, notices, doc } = await planned((doc) => writeEntity(doc, 'horses', id, { name: 'No breed' }));
    expect(plans).toMatchObject([{ kind: 'remove', collection: 'horses', id }]);
    expect(notices).toMatchObject([{ id, action: 'removed' }]);
    expect(collectionMap(doc, 'horses').has(id)).toBe(false);
  });

  it('brings back a deleted entity that something still refers to', async () => {
    const { plans, notices, doc, ids } = await planned((doc, ids) => deleteEntity(doc, 'breeds', ids.breed));
    expect(plans).toMatchObject([
      { kind: 'write', collection: 'breeds', id: ids.breed, restored: true, reason: 'In use: 1 record refers to it' },
    ]);
    expect(notices).toMatchObject([{ id: ids.breed, action: 'restored' }]);
    expect(getEntity(doc, 'breeds', ids.breed)).toEqual({ id: ids.breed, name: 'Arabian', isActive: true });
  });

  it('keeps a sale as it was recorded: an edit is written back, a deletion undone', async () => {
    const edited = await planned((doc, ids) => collectionMap(doc, 'sales').get(ids.sale)!.set('salePrice', '1.00'));
    expect(edited.plans).toMatchObject([
      { kind: 'write', collection: 'sales', fields: { salePrice: '5000.00' }, reason: 'A sale cannot be changed once recorded' },
    ]);
    const deleted = await planned((doc, ids) => deleteEntity(doc, 'sales', ids.sale));
    expect(deleted.plans).toMatchObject([{ kind: 'write', collection: 'sales', restored: true, reason: 'A sale cannot be deleted' }]);
    expect(valid(deleted.doc, 'sales', deleted.ids.sale)).toBe(true);
  });

  it('removes what is not a record, drops unknown fields and clears top-level types it has no place for', async () => {
    const { plans, notices, cost, doc, ids } = await planned((doc, ids) => {
      collectionMap(doc, 'breeds').set('not-an-id', new Y.Map<JsonValue>());
      collectionMap(doc, 'horses').get(ids.horse)!.set('favouriteFood', 'hay');
      doc.getArray('junk').push(['anything']);
    });
    expect(plans).toEqual(
      expect.arrayContaining([
        { kind: 'clear', root: 'junk', listOnly: false },
        expect.objectContaining({ kind: 'remove', collection: 'breeds', id: 'not-an-id', reason: 'Not a record: its key is not an id' }),
        expect.objectContaining({
          kind: 'write',
          collection: 'horses',
          id: ids.horse,
          drop: ['favouriteFood'],
          reason: 'Fields it may not have were removed',
        }),
      ]),
    );
    expect(plans).toHaveLength(3);
    // Only the horse is named in a notice; all three cost the sender's budget of records put back.
    expect(notices).toHaveLength(1);
    expect(cost).toBe(3);
    expect(doc.getArray('junk').length).toBe(0);
    expect(valid(doc, 'horses', ids.horse)).toBe(true);
  });

  it('brings back from its tombstone a supplier that an offline edit names again (a deletion yields to a reference)', async () => {
    const { plans, notices, doc, ids } = await planned(
      (doc, ids) => collectionMap(doc, 'horses').get(ids.horse)!.set('ownerId', ids.owner),
      {
        before: async ({ doc, ids, store, references }) => {
          // The office unlinks the supplier and deletes it; the store keeps its tombstone.
          const before = Y.encodeStateVector(doc);
          const { changes } = observeChange(doc, references, (d) => {
            collectionMap(d, 'horses').get(ids.horse)!.set('ownerId', null);
            deleteEntity(d, 'owners', ids.owner);
          });
          await store.append(RANCH, 1n, [{ update: Y.encodeStateAsUpdate(doc, before), userId: null }], { doc, changes });
        },
      },
    );
    expect(plans).toMatchObject([
      { kind: 'write', collection: 'owners', id: ids.owner, restored: true, fields: { firstName: 'Ada', lastName: 'Lovelace' } },
    ]);
    expect(notices).toEqual([]); // the sender's change stands; what it names is no news to them
    expect(valid(doc, 'owners', ids.owner) && valid(doc, 'horses', ids.horse)).toBe(true);
  });

  it('finds nothing to do in a valid ranch checked whole (the load check)', async () => {
    const { doc, references, store } = await storedRanch();
    const plans = await planCompensations(doc, { changes: everything(doc), edits: new Map() }, references, (collection, ids) =>
      store.lastValid(collection, ids),
    );
    expect(plans).toEqual([]);
  });
});
