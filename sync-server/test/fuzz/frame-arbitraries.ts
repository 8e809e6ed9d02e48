import fc from 'fast-check';
import * as encoding from 'lib0/encoding';
import * as Y from 'yjs';

/**
 * Raw WebSocket frames a hostile or buggy client may send on the sync socket. Frames are
 * symbolic (sizes, positions, seeds) and become bytes only when a run sends them, so a
 * failing run prints a short counterexample instead of megabytes.
 */
export type FrameSpec =
  | { kind: 'random-bytes'; bytes: Uint8Array }
  | { kind: 'garbage-inside'; type: 0 | 1; step: number; payload: Uint8Array }
  | { kind: 'step1-random-sv'; entries: [number, number][] }
  | { kind: 'awareness'; entries: { clientID: number; clock: number; stateBytes: number }[] }
  | { kind: 'unknown-type'; type: number; payload: Uint8Array }
  | { kind: 'huge-length'; type: 0 | 1; step: number; declared: number; tail: Uint8Array }
  | { kind: 'bad-varint'; prefix: Uint8Array; continuation: number }
  | { kind: 'mutated'; base: BaseFrame; mutation: Mutation };

/** A valid frame, made deterministically from its spec, that `mutation` then damages. */
export type BaseFrame =
  | { frame: 'update'; clientID: number; collection: string; key: string; field: string; value: string }
  | { frame: 'step1'; entries: [number, number][] }
  | { frame: 'awareness'; clientID: number; clock: number; stateBytes: number };

export type Mutation =
  | { op: 'flip'; at: number; bit: number }
  | { op: 'truncate'; at: number }
  | { op: 'splice'; at: number; bytes: Uint8Array }
  | { op: 'repeat'; times: number };

const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;

function frame(write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder();
  write(encoder);
  return encoding.toUint8Array(encoder);
}

function stateVector(entries: [number, number][]): Uint8Array {
  return frame((encoder) => {
    encoding.writeVarUint(encoder, entries.length);
    for (const [client, clock] of entries) {
      encoding.writeVarUint(encoder, client);
      encoding.writeVarUint(encoder, clock);
    }
  });
}

function awarenessUpdate(entries: { clientID: number; clock: number; stateBytes: number }[]): Uint8Array {
  return frame((encoder) => {
    encoding.writeVarUint(encoder, entries.length);
    for (const { clientID, clock, stateBytes } of entries) {
      encoding.writeVarUint(encoder, clientID);
      encoding.writeVarUint(encoder, clock);
      encoding.writeVarString(encoder, JSON.stringify({ user: { name: 'z'.repeat(stateBytes) } }));
    }
  });
}

function baseBytes(base: BaseFrame): Uint8Array {
  switch (base.frame) {
    case 'update': {
      const doc = new Y.Doc();
      doc.clientID = base.clientID;
      const entity = new Y.Map<string>();
      doc.getMap<Y.Map<string>>(base.collection).set(base.key, entity);
      entity.set('id', base.key);
      entity.set(base.field, base.value);
      const update = Y.encodeStateAsUpdate(doc);
      doc.destroy();
      return frame((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_SYNC);
        encoding.writeVarUint(encoder, 2);
        encoding.writeVarUint8Array(encoder, update);
      });
    }
    case 'step1':
      return frame((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_SYNC);
        encoding.writeVarUint(encoder, 0);
        encoding.writeVarUint8Array(encoder, stateVector(base.entries));
      });
    case 'awareness':
      return frame((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
        encoding.writeVarUint8Array(encoder, awarenessUpdate([base]));
      });
  }
}

function mutate(bytes: Uint8Array, mutation: Mutation): Uint8Array {
  const at = bytes.length === 0 ? 0 : mutation.op === 'repeat' ? 0 : mutation.at % bytes.length;
  switch (mutation.op) {
    case 'flip': {
      const copy = bytes.slice();
      copy[at] = (copy[at] ?? 0) ^ (1 << mutation.bit);
      return copy;
    }
    case 'truncate':
      return bytes.slice(0, at);
    case 'splice':
      return new Uint8Array([...bytes.slice(0, at), ...mutation.bytes, ...bytes.slice(at)]);
    case 'repeat':
      return new Uint8Array(Array.from({ length: mutation.times }, () => [...bytes]).flat());
  }
}

/** The bytes of a frame spec. */
export function frameBytes(spec: FrameSpec): Uint8Array {
  switch (spec.kind) {
    case 'random-bytes':
      return spec.bytes;
    case 'garbage-inside':
      return frame((encoder) => {
        encoding.writeVarUint(encoder, spec.type);
        if (spec.type === MESSAGE_SYNC) encoding.writeVarUint(encoder, spec.step);
        encoding.writeVarUint8Array(encoder, spec.payload);
      });
    case 'step1-random-sv':
      return baseBytes({ frame: 'step1', entries: spec.entries });
    case 'awareness':
      return frame((encoder) => {
        encoding.writeVarUint(encoder, MESSAGE_AWARENESS);
        encoding.writeVarUint8Array(encoder, awarenessUpdate(spec.entries));
      });
    case 'unknown-type':
      return frame((encoder) => {
        encoding.writeVarUint(encoder, spec.type);
        encoding.writeUint8Array(encoder, spec.payload);
      });
    case 'huge-length':
      return frame((encoder) => {
        encoding.writeVarUint(encoder, spec.type);
        if (spec.type === MESSAGE_SYNC) encoding.writeVarUint(encoder, spec.step);
        encoding.writeVarUint(encoder, spec.declared);
        encoding.writeUint8Array(encoder, spec.tail);
      });
    case 'bad-varint':
      // Every byte has its continuation bit set: a varint that never ends, or runs past 53 bits.
      return new Uint8Array([...spec.prefix, ...Array.from({ length: spec.continuation }, () => 0xff)]);
    case 'mutated':
      return mutate(baseBytes(spec.base), spec.mutation);
  }
}

const smallBytes = (maxLength: number) => fc.uint8Array({ maxLength });
const clientID = fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constantFrom(0, 1, 2 ** 53 - 1));
const clock = fc.oneof(fc.nat(1000), fc.constantFrom(2 ** 31, 2 ** 53 - 1));
const svEntries = fc.array(fc.tuple(clientID, clock), { maxLength: 6 });
/** Awareness states from empty to 256 KiB. */
const stateBytes = fc.oneof({ weight: 6, arbitrary: fc.nat(200) }, { weight: 1, arbitrary: fc.constantFrom(16_384, 262_144) });
const awarenessEntry = fc.record({ clientID, clock, stateBytes });

const baseFrame: fc.Arbitrary<BaseFrame> = fc.oneof(
  fc.record({
    frame: fc.constant('update' as const),
    clientID: fc.integer({ min: 1, max: 2 ** 31 }),
    collection: fc.constantFrom('horses', 'sales', 'payments', 'breeds', 'junk'),
    key: fc.uuid({ version: 4 }),
    field: fc.constantFrom('id', 'name', 'notes', 'amount'),
    value: fc.string({ maxLength: 12 }),
  }),
  fc.record({ frame: fc.constant('step1' as const), entries: svEntries }),
  fc.record({ frame: fc.constant('awareness' as const), clientID, clock, stateBytes: fc.nat(64) }),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('flip' as const), at: fc.nat(10_000), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat(10_000) }),
  fc.record({ op: fc.constant('splice' as const), at: fc.nat(10_000), bytes: smallBytes(8) }),
  fc.record({ op: fc.constant('repeat' as const), times: fc.integer({ min: 2, max: 3 }) }),
);

/** Every kind of raw frame, weighted so each is met often in a short run. */
export const frameSpec: fc.Arbitrary<FrameSpec> = fc.oneof(
  fc.record({ kind: fc.constant('random-bytes' as const), bytes: smallBytes(48) }),
  fc.record({
    kind: fc.constant('garbage-inside' as const),
    type: fc.constantFrom(0 as const, 1 as const),
    step: fc.oneof(fc.constantFrom(0, 1, 2), fc.nat(300)),
    payload: smallBytes(64),
  }),
  fc.record({ kind: fc.constant('step1-random-sv' as const), entries: svEntries }),
  fc.record({ kind: fc.constant('awareness' as const), entries: fc.array(awarenessEntry, { maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('unknown-type' as const),
    type: fc.oneof(fc.constantFrom(2, 4, 100, 101, 255, 2 ** 32), fc.integer({ min: 4, max: 2 ** 20 })),
    payload: smallBytes(32),
  }),
  fc.record({
    kind: fc.constant('huge-length' as const),
    type: fc.constantFrom(0 as const, 1 as const),
    step: fc.constantFrom(0, 1, 2),
    declared: fc.oneof(fc.constantFrom(2 ** 31 - 1, 2 ** 32, 2 ** 53 - 1, 64 * 1024 * 1024), fc.integer({ min: 100, max: 2 ** 30 })),
    tail: smallBytes(16),
  }),
  fc.record({
    kind: fc.constant('bad-varint' as const),
    prefix: fc.constantFrom(new Uint8Array([]), new Uint8Array([0]), new Uint8Array([0, 2]), new Uint8Array([1])),
    continuation: fc.integer({ min: 1, max: 16 }),
  }),
  fc.record({ kind: fc.constant('mutated' as const), base: baseFrame, mutation }),
);
