import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { UserBuckets } from '../src/sync/limits.ts';
import { ENCODE_SECONDS_SAVED, StateAnswers } from '../src/sync/state-answers.ts';

const ENCODE_MS_PER_SECOND = 100;
const ENCODE_MS_SAVED = ENCODE_MS_PER_SECOND * ENCODE_SECONDS_SAVED;

function ranch(horses: number): Y.Doc {
  const doc = new Y.Doc();
  doc.transact(() => {
    for (let i = 0; i < horses; i++) doc.getMap('horses').set(`h${i}`, `horse ${i}` as never);
  });
  return doc;
}

/** What a device gets by applying the answer's updates in order. */
function applied(updates: Uint8Array[]): Y.Doc {
  const device = new Y.Doc();
  for (const update of updates) Y.applyUpdate(device, update);
  return device;
}

const nothing = Y.encodeStateVector(new Y.Doc());

describe('sync step 2 answers', () => {
  it('answers every device that holds nothing with one encode while nothing changes, and the whole document in one update', () => {
    const doc = ranch(200);
    const answers = new StateAnswers(doc, ENCODE_MS_PER_SECOND);
    const first = answers.answer(nothing, 'viewer');
    const second = answers.answer(nothing, 'viewer');
    if (!('update' in first) || !('update' in second)) throw new Error('expected answers');
    expect(second.update).toBe(first.update);
    doc.getMap('horses').set('h0', 'renamed' as never);
    const third = answers.answer(nothing, 'viewer');
    if (!('update' in third)) throw new Error('expected an answer');
    // y-websocket calls a device synced on its step 2: that one update holds everything.
    expect(applied([third.update]).getMap('horses').toJSON()).toEqual(doc.getMap('horses').toJSON());
  });

  it('answers a device that holds part of the document with exactly what it lacks', () => {
    const doc = ranch(10);
    const device = applied([Y.encodeStateAsUpdate(doc)]);
    doc.getMap('horses').set('new', 'foal' as never);
    const answer = new StateAnswers(doc, ENCODE_MS_PER_SECOND).answer(Y.encodeStateVector(device), 'staff');
    if (!('update' in answer)) throw new Error('expected an answer');
    Y.applyUpdate(device, answer.update);
    expect(device.getMap('horses').get('new')).toBe('foal');
  });

  it("makes a user wait once their answers' encode time is spent, and no other user", () => {
    let clock = 0;
    const budgets = new UserBuckets(ENCODE_MS_PER_SECOND, ENCODE_MS_SAVED, () => clock);
    let served = 0;
    // A client forcing full encodes of the bench ranch: 700 ms each; the last one overdraws.
    while (budgets.wait('flooder') === 0) {
      budgets.take('flooder', 700);
      served++;
    }
    expect(served).toBe(Math.ceil(ENCODE_MS_SAVED / 700));
    expect(budgets.wait('office')).toBe(0);
    const overdrawn = served * 700 - ENCODE_MS_SAVED;
    const wait = budgets.wait('flooder');
    expect(wait).toBe(Math.ceil((overdrawn / ENCODE_MS_PER_SECOND) * 1000) + 1);
    clock += wait - 10;
    expect(budgets.wait('flooder')).toBeGreaterThan(0);
    clock += 10;
    expect(budgets.wait('flooder')).toBe(0);
  });
});
