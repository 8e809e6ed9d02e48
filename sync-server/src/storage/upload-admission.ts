/**
 * Admission of photo uploads, decided before a byte of the body is read (nginx's
 * `limit_conn`, with `limit_req`'s queue): at most `perUser` uploads of one user and `total`
 * of this server are read at once. The next ones wait, their bodies unread (the client's
 * connection simply does not move), up to `queuePerUser` of one user for at most `waitMs`;
 * past that they are answered at once (429 for the user's own limit, 503 for the server's,
 * each with Retry-After) and send again later, as the device's uploader does by itself. Each
 * upload being read holds a chunk of its body at a time (upload-chunks.ts), so these numbers
 * bound the memory and the database time uploads take, whatever clients send.
 *
 * An upload being read also reserves the bytes it may add ([I7]): the quota check before the
 * body is read counts them, so parallel uploads cannot all pass it while none is stored yet.
 * The check under the quota lock when storing stays the rule; a reservation only saves
 * reading bodies that could not be stored.
 */
export type UploadLimits = { perUser: number; total: number; queuePerUser: number; waitMs: number };

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { perUser: 2, total: 4, queuePerUser: 8, waitMs: 30_000 };

/** Seconds a refused upload is told to wait: the user's own uploads take a few seconds each. */
export const USER_BUSY_RETRY_SECONDS = 2;
export const SERVER_BUSY_RETRY_SECONDS = 5;

export type UploadSlot = {
  /** Bytes reserved by the user's other uploads being read, with the objects they will be. */
  othersReserved(): { objectId: string; bytes: number }[];
  reserve(objectId: string, bytes: number): void;
  release(): void;
};

export type Refusal = 'user-busy' | 'server-busy';

type Held = { objectId?: string; bytes: number };
type Waiter = { userId: string; grant: (slot: UploadSlot | Refusal) => void };

export class UploadAdmission {
  private readonly byUser = new Map<string, Set<Held>>();
  private readonly queue: Waiter[] = [];
  private count = 0;

  constructor(private readonly limits: UploadLimits = DEFAULT_UPLOAD_LIMITS) {}

  /** A slot for one upload of `userId`, at once or after a wait, or which limit refused it. */
  admit(userId: string, signal?: AbortSignal): Promise<UploadSlot | Refusal> {
    // Waiters never fit (each release lets in those that do), so one that fits now jumps no one of its own.
    if (this.fits(userId)) return Promise.resolve(this.enter(userId));
    const queued = this.queue.filter((waiter) => waiter.userId === userId).length;
    if (queued >= this.limits.queuePerUser) return Promise.resolve(this.refusal(userId));
    if (this.queue.length >= this.limits.total * this.limits.queuePerUser) return Promise.resolve('server-busy');
    return new Promise((resolve) => {
      const leave = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
      };
      const waiter: Waiter = {
        userId,
        grant: (outcome) => {
          leave();
          resolve(outcome);
        },
      };
      const timer = setTimeout(() => waiter.grant(this.refusal(userId)), this.limits.waitMs);
      timer.unref?.();
      // A client that went away while waiting takes no slot (its answer goes nowhere).
      const gone = () => waiter.grant(this.refusal(userId));
      signal?.addEventListener('abort', gone, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Uploads being read (tests). */
  get inFlight(): number {
    return this.count;
  }

  private fits(userId: string): boolean {
    return (this.byUser.get(userId)?.size ?? 0) < this.limits.perUser && this.count < this.limits.total;
  }

  private refusal(userId: string): Refusal {
    return (this.byUser.get(userId)?.size ?? 0) >= this.limits.perUser ? 'user-busy' : 'server-busy';
  }

  private enter(userId: string): UploadSlot {
    const mine = this.byUser.get(userId) ?? new Set<Held>();
    const held: Held = { bytes: 0 };
    mine.add(held);
    this.byUser.set(userId, mine);
    this.count++;
    let released = false;
    return {
      othersReserved: () =>
        [...mine]
          .filter((other) => other !== held && other.objectId)
          .map((other) => ({ objectId: other.objectId as string, bytes: other.bytes })),
      reserve: (objectId, bytes) => {
        held.objectId = objectId;
        held.bytes = bytes;
      },
      release: () => {
        if (released) return;
        released = true;
        mine.delete(held);
        if (mine.size === 0) this.byUser.delete(userId);
        this.count--;
        this.next();
      },
    };
  }

  /** The first waiters, in order, that now fit. */
  private next(): void {
    for (const waiter of [...this.queue]) {
      if (this.count >= this.limits.total) return;
      if (this.fits(waiter.userId)) waiter.grant(this.enter(waiter.userId));
    }
  }
}
