import * as encoding from 'lib0/encoding';
import { Awareness } from 'y-protocols/awareness';
import * as syncProtocol from 'y-protocols/sync';
import { describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { newId, SYNC_CLOSE } from '../../shared/index.ts';
import { SyncConnection, type Socket } from '../src/sync/connection.ts';
import type { DocumentHost } from '../src/sync/document-host.ts';
import { DEFAULT_SYNC_LIMITS, UserBuckets } from '../src/sync/limits.ts';

/**
 * [Y8] Updates committed while a device's full-state answer is being encoded wait behind it.
 * They count against the device's send buffer: a device that never reads cannot make the
 * server keep them without limit.
 */
const SEND_BUFFER = 64 * 1024;

/**
 * A host whose full-state answer is still being encoded (its promise never settles here);
 * `encodeStarted` says whether its encode has begun.
 */
function encodingHost(): { host: DocumentHost; encodeStarted: () => boolean } {
  const doc = new Y.Doc();
  let started = false;
  const host = {
    doc,
    subscribers: new Set(),
    epoch: { id: 'epoch' },
    run: <T>(work: () => T) => Promise.resolve().then(work),
    answers: {
      answer: () => {
        started = true;
        return { message: new Promise<Uint8Array>(() => {}) };
      },
    },
  } as unknown as DocumentHost;
  return { host, encodeStarted: () => started };
}

function step1(): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, 0);
  syncProtocol.writeSyncStep1(encoder, new Y.Doc());
  return encoding.toUint8Array(encoder);
}

describe('[Y8] updates held behind a full-state answer', () => {
  it('closes a device (4008) once the updates held for it pass its send buffer', async () => {
    const { host, encodeStarted } = encodingHost();
    const closes: number[] = [];
    const socket: Socket = { send: () => {}, close: (code) => closes.push(code), bufferedAmount: 0 };
    const connection = new SyncConnection(host, new Awareness(host.doc), socket, {
      id: 1,
      userId: newId(),
      sessionId: newId(),
      canWrite: true,
      wantsAcks: false,
      limits: { ...DEFAULT_SYNC_LIMITS, sendBufferBytes: SEND_BUFFER },
      invalidChanges: new UserBuckets(100, 100),
    });
    connection.receive(step1());
    // The answer is queued on the host, then its encoding starts: from then on updates are held.
    await vi.waitFor(() => expect(encodeStarted()).toBe(true));
    const update = new Uint8Array(15 * 1024);
    for (let i = 0; i < 4; i++) connection.sendUpdate(update);
    expect(closes).toEqual([]);
    connection.sendUpdate(update);
    expect(closes).toEqual([SYNC_CLOSE.slowReader.code]);
  });
});
