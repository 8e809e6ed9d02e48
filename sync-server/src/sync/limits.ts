/**
 * Per-connection limits of the sync socket, so that one connection (a Viewer's included)
 * cannot exhaust the memory or CPU every other device depends on. Figures and reasons:
 * docs/sync-limits.md.
 */
export type SyncLimits = {
  /** Largest message accepted, after inflating (ws `maxPayload`); larger closes with 1009. */
  maxMessageBytes: number;
  /** Unsent bytes queued for one connection (besides one full-state answer) before it is closed. */
  sendBufferBytes: number;
  /** All messages of one connection, per second (the bucket holds ten seconds' worth). */
  messagesPerSecond: number;
  /** Document updates (sync step 2 and update) of one connection, per second (ten seconds' worth). */
  updatesPerSecond: number;
  /** Awareness updates of one connection, per second (ten seconds' worth); the excess is dropped. */
  awarenessPerSecond: number;
  /** Largest awareness state (JSON bytes) relayed; larger ones are dropped. */
  awarenessStateBytes: number;
  /** Awareness client ids one connection may speak for. */
  awarenessClients: number;
  connectionsPerSession: number;
  connectionsPerUser: number;
  /** New entities one update may create; a larger update is refused (4400) before it is applied. */
  entitiesPerUpdate: number;
  /** Entities of one user's changes the server may put back (compensate) per minute; past it their updates are refused (4400). */
  invalidPerMinute: number;
  /** Encode time of one user's sync answers, in ms per second (thirty seconds' worth saved up); past it the answers wait. */
  encodeMsPerSecond: number;
};

const MiB = 1024 * 1024;

export const DEFAULT_SYNC_LIMITS: SyncLimits = {
  maxMessageBytes: 16 * MiB,
  sendBufferBytes: 16 * MiB,
  messagesPerSecond: 100,
  updatesPerSecond: 50,
  awarenessPerSecond: 5,
  awarenessStateBytes: 4096,
  awarenessClients: 4,
  connectionsPerSession: 8,
  connectionsPerUser: 20,
  entitiesPerUpdate: 20_000,
  invalidPerMinute: 1_000,
  encodeMsPerSecond: 100,
};

/** Seconds of the sustained rate a bucket holds: what a burst (reconnect, bulk save) may use at once. */
export const BURST_SECONDS = 10;

/** A token bucket: `perSecond` tokens a second, at most `perSecond * BURST_SECONDS` saved up. */
export class TokenBucket {
  private readonly capacity: number;
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.capacity = perSecond * BURST_SECONDS;
    this.tokens = this.capacity;
    this.last = now();
  }

  /** Takes one token; false when the bucket is empty. */
  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * A token bucket per user: `perSecond` tokens a second, at most `capacity` saved up; a take
 * may overdraw it (the cost of what was let through is known only after). Users are few
 * (accounts an Admin made), so the map stays small.
 */
export class UserBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly capacity: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes `count` tokens (it may overdraw); false when the user had none left. */
  take(userId: string, count: number): boolean {
    const bucket = this.current(userId);
    if (bucket.tokens <= 0) return false;
    bucket.tokens -= count;
    return true;
  }

  /** Whether the user has overdrawn (until the bucket refills). */
  spent(userId: string): boolean {
    return this.current(userId).tokens <= 0;
  }

  /** Milliseconds until the user has a token again (0: now). */
  wait(userId: string): number {
    const { tokens } = this.current(userId);
    return tokens > 0 ? 0 : Math.ceil((-tokens / this.perSecond) * 1000) + 1;
  }

  private current(userId: string): { tokens: number; at: number } {
    const now = this.now();
    let bucket = this.buckets.get(userId);
    if (!bucket) this.buckets.set(userId, (bucket = { tokens: this.capacity, at: now }));
    bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    return bucket;
  }
}

/**
 * Sockets open per session and per user on this instance (other instances count their own).
 * `admit` counts the socket when it is under both caps; `release` once it closes.
 */
export class ConnectionCounts {
  private readonly sessions = new Map<string, number>();
  private readonly users = new Map<string, number>();

  constructor(private readonly limits: Pick<SyncLimits, 'connectionsPerSession' | 'connectionsPerUser'>) {}

  admit(sessionId: string, userId: string): boolean {
    if ((this.sessions.get(sessionId) ?? 0) >= this.limits.connectionsPerSession) return false;
    if ((this.users.get(userId) ?? 0) >= this.limits.connectionsPerUser) return false;
    this.sessions.set(sessionId, (this.sessions.get(sessionId) ?? 0) + 1);
    this.users.set(userId, (this.users.get(userId) ?? 0) + 1);
    return true;
  }

  release(sessionId: string, userId: string): void {
    decrement(this.sessions, sessionId);
    decrement(this.users, userId);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const count = (counts.get(key) ?? 0) - 1;
  if (count > 0) counts.set(key, count);
  else counts.delete(key);
}

const MAX_CLOSE_REASON_BYTES = 123;

/** A close reason that fits a close frame (123 bytes of UTF-8): `ws.close` throws on longer ones. */
export function fitCloseReason(reason: string): string {
  if (Buffer.byteLength(reason) <= MAX_CLOSE_REASON_BYTES) return reason;
  let fitted = '';
  for (const char of reason) {
    if (Buffer.byteLength(fitted + char) > MAX_CLOSE_REASON_BYTES) break;
    fitted += char;
  }
  return fitted;
}
