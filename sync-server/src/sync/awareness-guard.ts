import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';
import type { Awareness } from 'y-protocols/awareness';
import { TokenBucket, type SyncLimits } from './limits.ts';

/** Which connection's guard introduced each awareness client id, per document's awareness. */
const owners = new WeakMap<Awareness, Map<number, AwarenessGuard>>();

type Limits = Pick<SyncLimits, 'awarenessPerSecond' | 'awarenessStateBytes' | 'awarenessClients'>;

/**
 * What one connection may do to presence: set or clear only the client ids it introduced
 * (at most `awarenessClients`), states up to `awarenessStateBytes`, at a bounded rate.
 * Everything else is dropped, not relayed: presence is advisory, and a stock client cannot
 * act on a refusal, so dropping is enough (floods are closed by the message rate limit).
 */
export class AwarenessGuard {
  private readonly clients = new Set<number>();
  private readonly rate: TokenBucket;
  private readonly owners: Map<number, AwarenessGuard>;

  constructor(
    awareness: Awareness,
    private readonly limits: Limits,
  ) {
    this.rate = new TokenBucket(limits.awarenessPerSecond);
    let map = owners.get(awareness);
    if (!map) owners.set(awareness, (map = new Map()));
    this.owners = map;
  }

  /** False when this connection sent too many awareness messages lately (drop this one). */
  allow(): boolean {
    return this.rate.take();
  }

  /** The part of an awareness update this connection may apply, or null when nothing is left. */
  filter(update: Uint8Array): Uint8Array | null {
    const decoder = decoding.createDecoder(update);
    const count = decoding.readVarUint(decoder);
    const kept: { clientId: number; clock: number; state: Uint8Array }[] = [];
    for (let index = 0; index < count; index++) {
      const clientId = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      // A varString is a varUint8Array of UTF-8: read the bytes, to measure without decoding.
      const state = decoding.readVarUint8Array(decoder);
      if (state.byteLength <= this.limits.awarenessStateBytes && this.claim(clientId)) kept.push({ clientId, clock, state });
    }
    if (kept.length === count) return update;
    if (kept.length === 0) return null;
    const encoder = encoding.createEncoder();
    encoding.writeVarUint(encoder, kept.length);
    for (const { clientId, clock, state } of kept) {
      encoding.writeVarUint(encoder, clientId);
      encoding.writeVarUint(encoder, clock);
      encoding.writeVarUint8Array(encoder, state);
    }
    return encoding.toUint8Array(encoder);
  }

  /** This connection's own id, or a new one while under its cap; never another connection's. */
  private claim(clientId: number): boolean {
    const owner = this.owners.get(clientId);
    if (owner) return owner === this;
    if (this.clients.size >= this.limits.awarenessClients) return false;
    this.owners.set(clientId, this);
    this.clients.add(clientId);
    return true;
  }

  /** The connection closed: its client ids are free again; returns them (their states are removed). */
  release(): number[] {
    const released = [...this.clients];
    for (const clientId of released) if (this.owners.get(clientId) === this) this.owners.delete(clientId);
    this.clients.clear();
    return released;
  }
}
