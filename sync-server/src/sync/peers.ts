import type { Sql } from '../db/client.ts';
import { ROLES, type Role } from '../../../shared/index.ts';
import type { DocumentStore } from './document-store.ts';
import { LEDGER_CHANNEL } from '../ledger/store.ts';

/** Channel for access changes that must reach every instance's open sockets. */
export const ACCESS_CHANNEL = 'ranch_access';

/**
 * `userSessions`: every session of the user ended but `exceptSessionId` (deactivation, a new
 * password, signing out everywhere: [U11]–[U14]).
 */
export type AccessEvent =
  | { kind: 'role'; userId: string; role: Role }
  | { kind: 'signOut'; sessionId: string }
  | { kind: 'userSessions'; userId: string; exceptSessionId?: string };

export type PeerHandlers = {
  /** Another instance (or this one) logged `doc` up to `seq`. */
  update(doc: string, seq: bigint): void;
  access(event: AccessEvent): void;
  /** An instance (this one included) committed ledger entries up to `seq`. */
  ledger(seq: bigint): void;
  /** Listening (re)started (true), or notifications may have been missed (false). */
  listening(complete: boolean): void;
};

/** How often the log positions are compared with Postgres, in case a notification was lost. */
const CHECK_EVERY_MS = 5_000;

/**
 * The link between server instances that share one Postgres (docs/architecture.md
 * "Several instances"): the document store tells of every append (in Postgres, a NOTIFY in
 * the append's statement), and access changes are NOTIFYed on ACCESS_CHANNEL. postgres.js
 * re-listens after a lost connection; a periodic check of the store's log positions catches
 * anything missed meanwhile (and re-listens).
 */
export class PeerLink {
  private stops: (() => Promise<void>)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sql: Sql,
    private readonly store: DocumentStore,
    private readonly handlers: PeerHandlers,
  ) {}

  async start(): Promise<void> {
    await this.subscribe();
    this.timer = setInterval(() => void this.check().catch(() => this.handlers.listening(false)), CHECK_EVERY_MS);
    this.timer.unref(); // not a reason to keep the process alive
  }

  private async subscribe(): Promise<void> {
    const onListen = () => {
      this.handlers.listening(true);
      void this.check().catch(() => {});
    };
    const access = await this.sql.listen(ACCESS_CHANNEL, (payload) => this.receiveAccess(payload));
    const ledger = await this.sql.listen(LEDGER_CHANNEL, (payload) => {
      if (/^\d{1,19}$/.test(payload)) this.handlers.ledger(BigInt(payload));
    });
    this.stops = [
      await this.store.listen((doc, seq) => this.handlers.update(doc, seq), onListen),
      () => access.unlisten(),
      () => ledger.unlisten(),
    ];
  }

  private receiveAccess(payload: string): void {
    const event = parseAccessEvent(payload);
    if (event) this.handlers.access(event);
  }

  /**
   * Compares every document's position with the store's: a document behind it lost a
   * notification and catches up now. So a lost notification costs at most CHECK_EVERY_MS.
   */
  private async check(): Promise<void> {
    for (const [name, seq] of await this.store.positions()) this.handlers.update(name, seq);
    this.handlers.listening(true);
  }

  /** Tells every instance, this one included, of an access change once committed. */
  async publishAccess(event: AccessEvent): Promise<void> {
    await this.sql`select pg_notify(${ACCESS_CHANNEL}, ${JSON.stringify(event)})`;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.allSettled(this.stops.map((stop) => stop()));
  }
}

function parseAccessEvent(payload: string): AccessEvent | null {
  try {
    const event = JSON.parse(payload) as Partial<AccessEvent> & Record<string, unknown>;
    if (event.kind === 'role' && typeof event.userId === 'string' && ROLES.includes(event.role as Role)) {
      return { kind: 'role', userId: event.userId, role: event.role as Role };
    }
    if (event.kind === 'signOut' && typeof event.sessionId === 'string') return { kind: 'signOut', sessionId: event.sessionId };
    if (event.kind === 'userSessions' && typeof event.userId === 'string') {
      return typeof event.exceptSessionId === 'string'
        ? { kind: 'userSessions', userId: event.userId, exceptSessionId: event.exceptSessionId }
        : { kind: 'userSessions', userId: event.userId };
    }
  } catch {
    // Not ours: ignored.
  }
  return null;
}
