import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { refuseDeepNesting, refuseInconsistent, refuseOversized, RefusedUpdateError } from '../src/sync/update-guard.ts';

/** The update `change` makes to a copy of `base`, decoded as the server decodes it. */
function decodedChange(base: Y.Doc, change: (doc: Y.Doc) => void) {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(base));
  const before = Y.encodeStateVector(copy);
  change(copy);
  return Y.decodeUpdate(Y.encodeStateAsUpdate(copy, before)).structs;
}

const horse = (doc: Y.Doc) => doc.getMap<Y.Map<unknown>>('horses');

describe('updates the document layout cannot hold', () => {
  it('takes a shared type in an entity field (two deep) and refuses one inside it (three deep)', () => {
    const server = new Y.Doc();
    const two = decodedChange(server, (doc) => {
      const entity = new Y.Map<unknown>();
      horse(doc).set('h', entity);
      entity.set('notes', new Y.Map());
    });
    expect(() => refuseDeepNesting(two, server)).not.toThrow();
    const three = decodedChange(server, (doc) => {
      const entity = new Y.Map<unknown>();
      horse(doc).set('h', entity);
      const nested = new Y.Map<unknown>();
      entity.set('notes', nested);
      nested.set('deeper', new Y.Array());
    });
    expect(() => refuseDeepNesting(three, server)).toThrow(RefusedUpdateError);
  });

  it('counts the levels the document already holds', () => {
    const server = new Y.Doc();
    Y.applyUpdate(
      server,
      Y.encodeStateAsUpdate(
        (() => {
          const doc = new Y.Doc();
          const entity = new Y.Map<unknown>();
          horse(doc).set('h', entity);
          entity.set('notes', new Y.Map());
          return doc;
        })(),
      ),
    );
    const inside = decodedChange(server, (doc) => (horse(doc).get('h')!.get('notes') as Y.Map<unknown>).set('deeper', new Y.Map()));
    expect(() => refuseDeepNesting(inside, server)).toThrow(RefusedUpdateError);
  });

  it('refuses an update creating more records than the cap', () => {
    const server = new Y.Doc();
    const many = decodedChange(server, (doc) => {
      for (let i = 0; i < 11; i++) horse(doc).set(`h${i}`, new Y.Map());
    });
    expect(() => refuseOversized(many, 11)).not.toThrow();
    expect(() => refuseOversized(many, 10)).toThrow('An update may create at most 10 records');
  });

  it('refuses an item that points at a later item of its own client (Yjs would throw halfway through applying it)', () => {
    const server = new Y.Doc();
    const valid = decodedChange(server, (doc) => {
      horse(doc).set('a', new Y.Map());
      horse(doc).set('a', new Y.Map());
    });
    expect(() => refuseInconsistent(valid)).not.toThrow();
    const [first] = valid as Y.Item[];
    const forged = new Y.Item(
      Y.createID(first!.id.client, 0),
      null,
      Y.createID(first!.id.client, 7),
      null,
      null,
      server.getMap('horses'),
      'b',
      new Y.ContentAny(['x']),
    );
    expect(() => refuseInconsistent([forged])).toThrow(RefusedUpdateError);
  });
});
