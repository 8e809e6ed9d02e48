import * as decoding from 'lib0/decoding';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { UserBuckets } from '../src/sync/limits.ts';
import { ENCODE_SECONDS_SAVED, ENCODER_RESTART_MS, StateAnswers } from '../src/sync/state-answers.ts';

const ENCODE_MS_PER_SECOND = 100;
const ENCODE_MS_SAVED = ENCODE_MS_PER_SECOND * ENCODE_SECONDS_SAVED;

function ranch(horses: number): Y.Doc {
  const doc = new Y.Doc();
  doc.transact(() => {
    for (let i = 0; i < horses; i++) doc.getMap('horses').set(`h${i}`, `horse ${i}` as never);
  });
  return doc;
}

/** What a device gets by applying the updates in order. */
function applied(updates: Uint8Array[]): Y.Doc {
  const device = new Y.Doc();
  for (const update of updates) Y.applyUpdate(device, update);
  return device;
}

/** The update of a sync step 2 message (y-websocket's message type, then y-protocols' step). */
function step2(message: Uint8Array): Uint8Array {
  const decoder = decoding.createDecoder(message);
  expect([decoding.readVarUint(decoder), decoding.readVarUint(decoder)]).toEqual([0, syncProtocol.messageYjsSyncStep2]);
  return decoding.readVarUint8Array(decoder);
}

async function answered(answers: StateAnswers, stateVector: Uint8Array, userId = 'viewer'): Promise<Uint8Array> {
  const answer = answers.answer(stateVector, userId);
  if (!('message' in answer)) throw new Error('expected an answer');
  return step2(await answer.message);
}

const nothing = Y.encodeStateVector(new Y.Doc());

describe('sync step 2 answers', () => {
  const opened: StateAnswers[] = [];
  /** Answers for `doc`, whose replica starts from the document as it is now. */
  const answersOf = (doc: Y.Doc) => {
    const answers = new StateAnswers(doc, [Y.encodeStateAsUpdate(doc)], ENCODE_MS_PER_SECOND);
    opened.push(answers);
    return answers;
  };
  afterEach(() => {
    for (const answers of opened.splice(0)) answers.destroy();
  });

  it('answers a device that holds nothing with the whole document in one update, as it is when asked', async () => {
    const doc = ranch(200);
    const answers = answersOf(doc);
    // y-websocket calls a device synced on its step 2: that one update holds everything.
    expect(
      applied([await answered(answers, nothing)])
        .getMap('horses')
        .toJSON(),
    ).toEqual(doc.getMap('horses').toJSON());
    doc.getMap('horses').set('h0', 'renamed' as never);
    const asked = answers.answer(nothing, 'viewer');
    // Committed after the answer was asked for: not in it (the connection sends it right after).
    doc.getMap('horses').set('h1', 'later' as never);
    if (!('message' in asked)) throw new Error('expected an answer');
    const device = applied([step2(await asked.message)]);
    expect(device.getMap('horses').get('h0')).toBe('renamed');
    expect(device.getMap('horses').get('h1')).toBe('horse 1');
    expect(
      applied([await answered(answers, nothing)])
        .getMap('horses')
        .toJSON(),
    ).toEqual(doc.getMap('horses').toJSON());
  });

  it('answers a device that holds part of the document with exactly what it lacks', async () => {
    const doc = ranch(10);
    const device = applied([Y.encodeStateAsUpdate(doc)]);
    const answers = answersOf(doc);
    doc.getMap('horses').set('new', 'foal' as never);
    const update = await answered(answers, Y.encodeStateVector(device), 'staff');
    expect(update.byteLength).toBeLessThan(Y.encodeStateAsUpdate(doc).byteLength / 4);
    Y.applyUpdate(device, update);
    expect(device.getMap('horses').toJSON()).toEqual(doc.getMap('horses').toJSON());
  });

  it("gives a compaction the whole document as it is when asked, without charging anyone's budget", async () => {
    const doc = ranch(50);
    const answers = answersOf(doc);
    doc.getMap('horses').set('h0', 'renamed' as never);
    const snapshot = answers.wholeDocument();
    doc.getMap('horses').set('h1', 'later' as never);
    const device = applied([await snapshot]);
    expect(device.getMap('horses').get('h0')).toBe('renamed');
    expect(device.getMap('horses').get('h1')).toBe('horse 1');
  });

  it('refuses to answer once closed, rather than leave a device waiting', async () => {
    const answers = answersOf(ranch(3));
    const asked = answers.answer(nothing, 'viewer');
    answers.destroy();
    if (!('message' in asked)) throw new Error('expected an answer');
    await expect(asked.message).rejects.toThrow('closed');
  });

  it('starts a new encoder from the document as it is when its thread dies, and leaves no answer waiting', async () => {
    const doc = ranch(20);
    let clock = 0;
    const threads: Worker[] = [];
    const answers = new StateAnswers(
      doc,
      [Y.encodeStateAsUpdate(doc)],
      ENCODE_MS_PER_SECOND,
      () => clock,
      (updates) => {
        const thread = new Worker(new URL('../src/sync/state-encoder-worker.mjs', import.meta.url), { workerData: { updates } });
        threads.push(thread);
        return thread;
      },
    );
    opened.push(answers);
    const asked = answers.answer(nothing, 'viewer');
    await threads[0]!.terminate();
    // Answered before the thread died or failed with it: never left waiting.
    if (!('message' in asked)) throw new Error('expected an answer');
    await asked.message.catch(() => {});
    // Written while no thread runs: the replica that had them is gone.
    doc.getMap('horses').set('h0', 'renamed' as never);
    doc.getMap('horses').set('foal', 'new' as never);
    // Right after a thread died no new one starts (its seed is encoded on the main thread): the answer fails at once.
    const tooSoon = answers.answer(nothing, 'viewer');
    if (!('message' in tooSoon)) throw new Error('expected an answer');
    await expect(tooSoon.message).rejects.toThrow('stopped');
    clock += ENCODER_RESTART_MS;
    // A new device (its connection reconnects after the failure) gets the whole document.
    expect(
      applied([await answered(answers, nothing)])
        .getMap('horses')
        .toJSON(),
    ).toEqual(doc.getMap('horses').toJSON());
    expect(threads).toHaveLength(2);
    // And the new thread follows later changes.
    doc.getMap('horses').set('h1', 'later' as never);
    expect(
      applied([await answered(answers, nothing)])
        .getMap('horses')
        .get('h1'),
    ).toBe('later');
    expect(
      applied([await answers.wholeDocument()])
        .getMap('horses')
        .get('foal'),
    ).toBe('new');
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
