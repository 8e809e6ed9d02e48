import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { entityShape, readRecord } from './entity-shape.ts';
import { collectionMap } from './doc-layout.ts';

const ID = '0190a0a0-0000-7000-8000-0000000000aa';
const OTHER = '0190a0a0-0000-7000-8000-0000000000bb';

/** Puts `value` under `key` of `breeds` in a fresh document and returns what is stored there. */
function stored(key: string, value: unknown): unknown {
  const doc = new Y.Doc();
  collectionMap(doc, 'breeds').set(key, value as never);
  return collectionMap(doc, 'breeds').get(key);
}

function breed(fields: Record<string, unknown>): Y.Map<unknown> {
  const map = new Y.Map<unknown>();
  for (const [field, value] of Object.entries(fields)) map.set(field, value);
  return map;
}

describe('[O8] [Y3] reading a synced entity without trusting it', () => {
  it('reads a valid record, normalised by its schema, with the key as its id', () => {
    expect(readRecord('breeds', ID, stored(ID, breed({ id: ID, name: '  Arabian ', isActive: true })))).toEqual({
      valid: true,
      record: { id: ID, name: 'Arabian', isActive: true },
    });
  });

  it('refuses a key that is not an entity id and a value that is not a map', () => {
    expect(entityShape('breeds', 'not-a-uuid', stored('not-a-uuid', breed({ id: 'not-a-uuid', name: 'x' })))).toEqual({ kind: 'bad-key' });
    expect(entityShape('breeds', ID.toUpperCase(), stored(ID.toUpperCase(), breed({ id: ID.toUpperCase(), name: 'x' })))).toEqual({
      kind: 'bad-key',
    });
    expect(entityShape('breeds', ID, stored(ID, 'a string'))).toEqual({ kind: 'not-a-map' });
    expect(entityShape('breeds', ID, stored(ID, new Y.Text('text')))).toEqual({ kind: 'not-a-map' });
    expect(readRecord('breeds', ID, stored(ID, new Y.Array())).valid).toBe(false);
  });

  it('names a missing or foreign id, unknown fields and fields holding shared types or objects as strays', () => {
    const value = stored(ID, breed({ name: 'Shire', isActive: true, junk: 'x', notes: 'not a breed field' }));
    expect(entityShape('breeds', ID, value)).toEqual({
      kind: 'entity',
      fields: { name: 'Shire', isActive: true },
      strays: ['junk', 'notes', 'id'],
    });
    const foreign = stored(ID, breed({ id: OTHER, name: new Y.Text('Shire'), isActive: { yes: true } }));
    const shape = entityShape('breeds', ID, foreign);
    expect(shape.kind === 'entity' && shape.strays.sort()).toEqual(['id', 'isActive', 'name']);
    expect(readRecord('breeds', ID, foreign)).toMatchObject({ valid: false, fields: expect.arrayContaining(['id', 'name', 'isActive']) });
  });

  it('reads the fields a record holds now: a field deleted, or set again, is read as it is, not as it was', () => {
    const value = stored(ID, breed({ id: ID, name: 'Shire', isActive: true, junk: 'x' })) as Y.Map<unknown>;
    value.delete('junk');
    value.set('name', 'Shire Horse');
    expect(entityShape('breeds', ID, value)).toEqual({
      kind: 'entity',
      fields: { id: ID, name: 'Shire Horse', isActive: true },
      strays: [],
    });
  });

  it('reads a deeply nested value one level deep, without overflowing the stack', () => {
    let inner = new Y.Map<unknown>();
    const doc = new Y.Doc();
    const root = breed({ id: ID, name: 'Deep', isActive: true });
    collectionMap(doc, 'breeds').set(ID, root as never);
    doc.transact(() => {
      let parent: Y.Map<unknown> = root;
      for (let depth = 0; depth < 20_000; depth++) {
        inner = new Y.Map<unknown>();
        parent.set('nested', inner);
        parent = inner;
      }
    });
    expect(readRecord('breeds', ID, root)).toMatchObject({ valid: false, fields: ['nested'] });
  });

  it('gives the schema message for a value of the wrong type', () => {
    expect(readRecord('breeds', ID, stored(ID, breed({ id: ID, name: '', isActive: true })))).toMatchObject({
      valid: false,
      fields: ['name'],
      problem: 'name: Name is required',
    });
  });
});
