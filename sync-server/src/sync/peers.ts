import type { Sql } from '../db/client.ts';
import { ROLES, type Role } from '../../../shared/index.ts';
import { UPDATES_CHANNEL } from './persistence.ts';

/** Channel for access changes that must reach every instance's open sockets. */
export const ACCESS_CHANNEL = 'ranch_access';

export type AccessEvent = { kind: 'role'; userId: string; role: Role } | { kind: 'signOut'; sessionId: string };

export type PeerHandlers = {
  /** Another instance (or this one) logged `doc` up to `seq`. */
  update(doc: string, seq: bigint): void;
  access(event: AccessEvent): void;
  /** Listening (re)started (true), or notifications may have been missed (false). */
  listening(complete: boolean): void;
};

/** How often the log positions are compared with Postgres, in case a notification was lost. */
const CHECK_EVERY_MS = 5_000;

/**
 * The link between server instances that share one Postgres (docs/architecture.md
 * "Several instances"): every commit NOTIFYs `<doc> <seq>` on UPDATES_CHANNEL in its own statement;
 * this LISTENs to it and to ACCESS_CHANNEL. postgres.js re-listens after a lost connection;
 * a periodic check of `docs.last_seq` catches anything missed meanwhile (and re-listens).
 */
export class PeerLink {
  private subscriptions: { unlisten(): Promise<void> }[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sql: Sql,
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
    this.subscriptions = [
      await this.sql.listen(UPDATES_CHANNEL, (payload) => this.receiveUpdate(payload), onListen),
      await this.sql.listen(ACCESS_CHANNEL, (payload) => this.receiveAccess(payload)),
    ];
  }

  private receiveUpdate(payload: string): void {
    const [doc, seq] = payload.split(' ');
    if (doc && seq && /^\d+$/.test(seq)) this.handlers.update(doc, BigInt(seq));
  }

  private receiveAccess(payload: string): void {
    const event = parseAccessEvent(payload);
    if (event) this.handlers.access(event);
  }

  /**
   * Compares every document's position with Postgres: a document behind it lost a
   * notification and catches up now. So a lost notification costs at most CHECK_EVERY_MS.
   */
  private async check(): Promise<void> {
    const rows = await this.sql<{ name: string; last_seq: string }[]>`select name, last_seq from docs`;
    for (const row of rows) this.handlers.update(row.name, BigInt(row.last_seq));
    this.handlers.listening(true);
  }

  /** Tells every instance, this one included, of an access change once committed. */
  async publishAccess(event: AccessEvent): Promise<void> {
    await this.sql`select pg_notify(${ACCESS_CHANNEL}, ${JSON.stringify(event)})`;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await Promise.allSettled(this.subscriptions.map((subscription) => subscription.unlisten()));
  }
}

function parseAccessEvent(payload: string): AccessEvent | null {
  try {
    const event = JSON.parse(payload) as Partial<AccessEvent> & Record<string, unknown>;
    if (event.kind === 'role' && typeof event.userId === 'string' && ROLES.includes(event.role as Role)) {
      return { kind: 'role', userId: event.userId, role: event.role as Role };
    }
    if (event.kind === 'signOut' && typeof event.sessionId === 'string') return { kind: 'signOut', sessionId: event.sessionId };
  } catch {
    // Not ours: ignored.
  }
  return null;
}
