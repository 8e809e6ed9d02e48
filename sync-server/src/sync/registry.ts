import type { Sql } from '../db/client.ts';
import { SESSION_MAX_AGE_MS } from '../auth/sessions.ts';
import { DOC_NAME, publicName, type Role } from '../../../shared/index.ts';
import { DocumentHost } from './document-host.ts';
import type { DocumentStore } from './document-store.ts';
import { PostgresDocumentStore } from './postgres-document-store.ts';
import type { Subscriber } from './subscriber.ts';
import { PeerLink, type AccessEvent } from './peers.ts';
import { DocumentVersions } from './versions.ts';
import { LedgerSaleIndex } from '../ledger/sale-index.ts';
import { oldLayout } from '../ledger/old-layout.ts';

/**
 * How often open connections' sessions are checked against Postgres: a session that ended
 * without its access event reaching this instance (a notification lost while the listener
 * reconnected, a socket opened just as its account was deactivated) or that expired while
 * connected is closed within this time (4401).
 */
export const SESSION_CHECK_MS = 15_000;

export type RegistryOptions = {
  compactEvery?: number;
  /** Encode time of each user's sync answers, ms per second (docs/sync-limits.md). */
  encodeMsPerSecond?: number;
  /** False when other instances may share the database (then they are listened to). */
  alone: boolean;
};

/** The documents this instance holds in memory, loaded on first use. */
export class DocumentRegistry {
  private readonly hosts = new Map<string, Promise<DocumentHost>>();
  readonly versions: DocumentVersions;
  private peers: PeerLink | undefined;
  private readonly store: DocumentStore;
  private readonly sessionTimer: NodeJS.Timeout;

  constructor(
    private readonly sql: Sql,
    private readonly options: RegistryOptions,
  ) {
    this.versions = new DocumentVersions(sql, options.alone);
    this.store = new PostgresDocumentStore(sql);
    this.sessionTimer = setInterval(() => void this.checkSessions().catch(() => {}), SESSION_CHECK_MS);
    this.sessionTimer.unref(); // not a reason to keep the process alive
  }

  static isKnown(name: string): boolean {
    return name === DOC_NAME;
  }

  get(name: string = DOC_NAME): Promise<DocumentHost> {
    let host = this.hosts.get(name);
    if (!host) {
      const events = {
        onBroken: (broken: DocumentHost) => this.evict(broken),
        onPosition: (doc: string, seq: bigint) => this.versions.advance(doc, seq),
      };
      host = LedgerSaleIndex.load(this.sql).then((ledgerSales) =>
        DocumentHost.load(this.store, name, events, {
          ...(this.options.compactEvery ? { compactEvery: this.options.compactEvery } : {}),
          ...(this.options.encodeMsPerSecond ? { encodeMsPerSecond: this.options.encodeMsPerSecond } : {}),
          authorName: (userId) => this.publicNameOf(userId),
          ledgerSales,
          oldLayout: oldLayout(this.sql, ledgerSales, (head) => this.announceLedger(head)),
        }),
      );
      this.hosts.set(name, host);
      host.catch(() => this.hosts.delete(name));
    }
    return host;
  }

  /** Listens to the other instances sharing the database (not when alone). */
  async connectPeers(): Promise<void> {
    if (this.options.alone || this.peers) return;
    this.peers = new PeerLink(this.sql, this.store, {
      update: (doc, seq) => this.peerLogged(doc, seq),
      access: (event) => void this.applyAccess(event),
      ledger: (seq) => {
        this.announceLedger(seq);
        void this.forEachHost((host) => void host.ledgerSales?.catchUp(seq));
      },
      listening: (complete) => this.versions.setComplete(complete),
    });
    await this.peers.start();
  }

  /** A document reached `seq` in Postgres: a loaded copy takes in what it lacks. */
  private peerLogged(name: string, seq: bigint): void {
    this.versions.advance(name, seq);
    void this.hosts.get(name)?.then(
      (host) => host.catchUp(seq),
      () => {},
    );
  }

  /**
   * A role changed or sessions ended: open connections follow at once, on this instance
   * and, through Postgres, on every other (each applies it again; doing so twice is harmless).
   */
  async announceAccess(event: AccessEvent): Promise<void> {
    await this.applyAccess(event);
    await this.peers?.publishAccess(event);
  }

  /** The ledger's head as last announced here: an announcement heard twice (here and from Postgres) is sent once. */
  private ledgerHead = 0n;

  /**
   * Ledger entries up to `seq` are committed (ledger/store.ts): every connection of this
   * instance is told; the other instances hear it through Postgres (LEDGER_CHANNEL).
   */
  announceLedger(seq: bigint): void {
    this.versions.advanceLedger(seq);
    if (seq <= this.ledgerHead) return;
    this.ledgerHead = seq;
    void this.forEachConnection((connection) => connection.sendLedgerHead?.(seq));
  }

  private async applyAccess(event: AccessEvent): Promise<void> {
    if (event.kind === 'role') await this.applyRole(event.userId, event.role);
    else if (event.kind === 'signOut') await this.closeSession(event.sessionId);
    else await this.closeUserSessions(event.userId, event.exceptSessionId);
  }

  private async applyRole(userId: string, role: Role): Promise<void> {
    await this.forEachConnection((connection) => {
      if (connection.userId === userId) connection.setCanWrite(role !== 'Viewer');
    });
  }

  private async closeSession(sessionId: string): Promise<void> {
    await this.forEachConnection((connection) => {
      if (connection.sessionId === sessionId) connection.closeSignedOut();
    });
  }

  /** Closes the user's connections (4401, signed out), but those of `exceptSessionId`. */
  private async closeUserSessions(userId: string, exceptSessionId: string | undefined): Promise<void> {
    await this.forEachConnection((connection) => {
      if (connection.userId === userId && connection.sessionId !== exceptSessionId) connection.closeSignedOut();
    });
  }

  /**
   * Closes (4401) the connections whose session no longer is one: deleted, expired, or of a
   * deactivated account ([U11], [A8]), and gives the others their user's role as it is now
   * ([U4]): an access event lost on this instance, or a role changed while a socket was
   * opening, is caught here. Only sessions read in this check are judged, so a connection
   * opened meanwhile waits for the next. Resolves with how many it closed.
   */
  async checkSessions(): Promise<number> {
    const checked = new Set<string>();
    await this.forEachConnection((connection) => checked.add(connection.sessionId));
    if (checked.size === 0) return 0;
    const live = await this.liveSessions([...checked]);
    let closed = 0;
    await this.forEachConnection((connection) => {
      if (!checked.has(connection.sessionId)) return;
      const role = live.get(connection.sessionId);
      if (role) {
        connection.setCanWrite(role !== 'Viewer');
        return;
      }
      connection.closeSignedOut();
      closed++;
    });
    return closed;
  }

  /**
   * [U4] A connection just opened (already subscribed, so later access events reach it) gets
   * its session checked and its role read again: a change committed between the upgrade's
   * session read and the subscription applies now, not at the next periodic check.
   */
  async checkConnection(connection: Subscriber): Promise<void> {
    const role = (await this.liveSessions([connection.sessionId])).get(connection.sessionId);
    if (role) connection.setCanWrite(role !== 'Viewer');
    else connection.closeSignedOut();
  }

  /** [K1] [T1] How the user is named to others (publicName), from the user table. */
  private async publicNameOf(userId: string): Promise<string> {
    const [user] = await this.sql<{ firstName: string | null; lastName: string | null; role: Role }[]>`
      select first_name as "firstName", last_name as "lastName", role from users where id = ${userId}`;
    return user ? publicName(user) : 'Unknown user';
  }

  /** The sessions of `ids` that still are sessions, with their user's role. */
  private async liveSessions(ids: string[]): Promise<Map<string, Role>> {
    const rows = await this.sql<{ id: string; role: Role }[]>`
      select s.id, u.role from sessions s join users u on u.id = s.user_id
      where s.id = any(${ids}) and s.expires_at > now() and s.created_at > ${new Date(Date.now() - SESSION_MAX_AGE_MS)} and u.is_active`;
    return new Map(rows.map((row) => [row.id, row.role]));
  }

  private async forEachConnection(visit: (connection: Subscriber) => void): Promise<void> {
    await this.forEachHost((host) => {
      for (const subscriber of host.subscribers) visit(subscriber);
    });
  }

  private async forEachHost(visit: (host: DocumentHost) => void): Promise<void> {
    const hosts = await Promise.allSettled(this.hosts.values());
    for (const host of hosts) if (host.status === 'fulfilled') visit(host.value);
  }

  private evict(broken: DocumentHost): void {
    void this.hosts.get(broken.name)?.then((current) => {
      if (current === broken) this.hosts.delete(broken.name);
      broken.destroy();
    });
  }

  /**
   * Graceful stop (docs/architecture.md "Stopping"): connections stop reading, every change
   * already taken in is committed and acknowledged, then each connection is closed with 1012
   * (Service Restart) so that devices reconnect at once and resend what was not acknowledged.
   */
  async stopConnections(): Promise<void> {
    await this.forEachConnection((connection) => connection.stopReading?.());
    const hosts = await Promise.allSettled(this.hosts.values());
    for (const host of hosts) if (host.status === 'fulfilled') await host.value.settled();
    await this.forEachConnection((connection) => connection.closeRestarting?.());
  }

  async close(): Promise<void> {
    clearInterval(this.sessionTimer);
    await this.peers?.stop();
    const hosts = await Promise.allSettled(this.hosts.values());
    for (const host of hosts) if (host.status === 'fulfilled') host.value.destroy();
    this.hosts.clear();
  }
}
