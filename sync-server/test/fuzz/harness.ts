import fc from 'fast-check';
import * as Y from 'yjs';
import { collectionMap, COLLECTIONS, entityShape, newId, writeEntity } from '../../../shared/index.ts';
import type { DocumentHost } from '../../src/sync/document-host.ts';
import { signIn, signInAs, type ApiClient } from '../support/client.ts';
import { ADMIN, type TestServer } from '../support/server.ts';
import { frameBytes, frameSpec, type FrameSpec } from './frame-arbitraries.ts';
import { HonestDevices, honestOp, type HonestOp } from './honest-devices.ts';
import { applyHostile, freshPool, writeStartingRanch } from './hostile-updates.ts';
import { HostileSocket, type Outcome } from './hostile-socket.ts';
import { checkInvariants } from './invariants.ts';
import { hostileUpdate, updateKinds, type HostileUpdate } from './update-arbitraries.ts';

/** One step of a run: a raw frame or a hostile update from the hostile client, or an honest device's write. */
export type Step = { frame: FrameSpec } | { update: HostileUpdate } | { honest: HonestOp };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: frameSpec.map((frame) => ({ frame })) },
  { weight: 5, arbitrary: hostileUpdate.map((update) => ({ update })) },
  { weight: 2, arbitrary: honestOp.map((honest) => ({ honest })) },
);

/** A run: 1–`max` steps (any length down to one, so a failure shrinks to its shortest sequence). */
/**
 * The server the fuzzer runs against: the limits as shipped, but for the budget of records put
 * back per user — the hostile client is one user, and once refused for being hostile
 * (sync-update-caps.test.ts tests that) it would explore nothing more.
 */
export const FUZZ_SERVER = { syncLimits: { invalidPerMinute: 1_000_000_000 } };

export const scenario = (max: number): fc.Arbitrary<Step[]> => fc.array(step, { minLength: 1, maxLength: max, size: 'max' });

const ACK_TIMEOUT_MS = 20_000;

/**
 * What one acknowledged change may add to the document besides its records' values: item ids,
 * the ranges of what it replaced or the rules deleted, a key of at most 64 bytes.
 */
const BYTES_PER_CHANGE = 128;

/** The document as a brand-new device downloads it (the whole state, anything Yjs holds aside included). */
const fullState = (host: DocumentHost): Promise<number> => host.run(() => Y.encodeStateAsUpdate(host.doc).byteLength);

/** The bytes of `ids`' records as they are now, written afresh into an empty document: the valid records a run wrote. */
function freshRecordsBytes(doc: Y.Doc, ids: Set<string>): number {
  const fresh = new Y.Doc();
  fresh.transact(() => {
    for (const collection of COLLECTIONS) {
      collectionMap(doc, collection).forEach((value, key) => {
        if (!ids.has(key)) return;
        const shape = entityShape(collection, key, value);
        if (shape.kind === 'entity') writeEntity(fresh, collection, key, shape.fields);
      });
    }
  });
  const bytes = Y.encodeStateAsUpdate(fresh).byteLength;
  fresh.destroy();
  return bytes;
}

/** What the fuzzer tried and what held, over every run of a harness. */
export class Tally {
  readonly counts = new Map<string, number>();
  add(key: string, by = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + by);
  }
  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }
  /** The counts whose key starts with `prefix`, sorted by key. */
  section(prefix: string): [string, number][] {
    return [...this.counts].filter(([key]) => key.startsWith(prefix)).sort(([a], [b]) => a.localeCompare(b));
  }
}

/**
 * Runs scenarios through real sockets against a real server: a hostile Staff client on a
 * raw socket, honest Staff devices (stock y-websocket clients with acknowledgements), and
 * after each run the invariants of invariants.ts among the entities the run touched.
 */
export class FuzzHarness {
  readonly tally = new Tally();
  /** The hostile client's changes the server acknowledged in the current run. */
  private acknowledged = 0;

  private constructor(
    private readonly server: TestServer,
    private readonly staff: ApiClient,
    private readonly hostile: HostileSocket,
    private readonly honest: HonestDevices,
  ) {}

  static async start(server: TestServer): Promise<FuzzHarness> {
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const attacker = await signInAs(server.url, admin, 'Staff');
    const staff = await signInAs(server.url, admin, 'Staff');
    return new FuzzHarness(server, staff, new HostileSocket(server.url, attacker.cookie), new HonestDevices(server.url, staff.cookie));
  }

  stop(): void {
    this.hostile.close();
    this.honest.destroy();
  }

  /** Runs one scenario; the violations found (none when every invariant held). */
  async run(steps: Step[]): Promise<string[]> {
    const violations: string[] = [];
    const hostBefore = await this.server.registry.get();
    const sizeBefore = await fullState(hostBefore);
    this.acknowledged = 0;
    const ids = freshPool(newId);
    this.tally.add('runs');
    this.honest.startRun();
    const start = await this.hostile.sendChange((doc) => void writeStartingRanch(doc, ids));
    if (start.result !== 'acked') violations.push(`the valid starting ranch was not acknowledged: ${describe(start)}`);
    else this.acknowledged++;

    for (const s of steps) {
      if ('frame' in s) {
        this.tally.add(`frame:${s.frame.kind}`);
        this.record('frame', s.frame.kind, await this.hostile.sendFrame(frameBytes(s.frame)), violations);
      } else if ('update' in s) {
        updateKinds(s.update).forEach((kind) => this.tally.add(`update:${kind}`));
        this.record('update', s.update.kind, await this.hostile.sendChange((doc) => applyHostile(doc, ids, s.update)), violations);
      } else {
        this.tally.add(`honest:${s.honest.kind}`);
        this.honest.apply(s.honest);
      }
    }

    // Barrier: a valid write of the hostile client acknowledged means all it sent before is committed.
    const barrier = newId();
    const end = await this.hostile.sendChange((doc) => void writeEntity(doc, 'breeds', barrier, { name: 'Barrier', isActive: true }));
    if (end.result !== 'acked') violations.push(`(a) the hostile client's closing valid write was not acknowledged: ${describe(end)}`);
    if (!(await this.untilAcknowledged(Date.now() + ACK_TIMEOUT_MS)))
      violations.push(`(a) honest devices ${this.honest.unacknowledged().join(', ')} not acknowledged within ${ACK_TIMEOUT_MS} ms`);
    const { written, acknowledged } = this.honest.tally();
    this.tally.add('honest writes', written);
    this.tally.add('honest writes acknowledged', acknowledged);
    const host = await this.server.registry.get();
    await host.run(() => undefined);
    if (host !== hostBefore) {
      this.tally.add('document reloads');
      violations.push('(a) the document host broke during the run and was reloaded (every device was disconnected)');
    }

    const only = new Set([...Object.values(ids).flat(), ...this.honest.ids(), barrier]);
    // N1: nothing refused may stay in what every new device downloads; what was taken may add
    // its records and a bounded trace per change.
    const grown = (await fullState(host)) - sizeBefore;
    const allowed = (await host.run(() => freshRecordsBytes(host.doc, only))) + BYTES_PER_CHANGE * (this.acknowledged + acknowledged + 1);
    this.tally.add('document bytes grown', Math.max(0, grown));
    if (grown > allowed)
      violations.push(
        `(e) the first sync grew by ${grown} bytes, more than the ${allowed} the valid records written and their changes take`,
      );
    const report = await checkInvariants(this.server, this.staff, only, [...this.honest.expected.values()]);
    this.tally.add('invariants checked', report.checked);
    this.tally.add('honest writes lost', report.lost);
    violations.push(...report.violations);
    if (violations.length > 0) this.tally.add('runs with violations');
    return violations;
  }

  /** Polls until every honest write is acknowledged; false at `deadline`. */
  private async untilAcknowledged(deadline: number): Promise<boolean> {
    while (this.honest.unacknowledged().length > 0) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return true;
  }

  private record(what: 'frame' | 'update', kind: string, outcome: Outcome, violations: string[]): void {
    this.tally.add(`outcome:${describe(outcome)}`);
    if (outcome.result === 'acked') this.acknowledged++;
    if (outcome.result === 'no-answer') violations.push(`(a) the server did not answer a hostile ${what} (${kind}) within 15 s`);
  }
}

function describe(outcome: Outcome): string {
  return outcome.result === 'closed' ? `closed ${outcome.code}` : outcome.result;
}
