import type { Sql } from '../db/client.ts';
import { DOC_NAME, type Role } from '../../../shared/index.ts';
import { SyncConnection } from './connection.ts';
import { DocumentHost } from './document-host.ts';

/** The documents this instance holds in memory, loaded on first use. */
export class DocumentRegistry {
  private readonly hosts = new Map<string, Promise<DocumentHost>>();

  constructor(
    private readonly sql: Sql,
    private readonly options: { compactEvery?: number } = {},
  ) {}

  static isKnown(name: string): boolean {
    return name === DOC_NAME;
  }

  get(name: string = DOC_NAME): Promise<DocumentHost> {
    let host = this.hosts.get(name);
    if (!host) {
      host = DocumentHost.load(this.sql, name, (broken) => this.evict(broken), this.options.compactEvery);
      this.hosts.set(name, host);
      host.catch(() => this.hosts.delete(name));
    }
    return host;
  }

  /** A user's role changed: their open connections on this instance follow at once. */
  async applyRole(userId: string, role: Role): Promise<void> {
    await this.forEachConnection((connection) => {
      if (connection.userId === userId) connection.setCanWrite(role !== 'Viewer');
    });
  }

  /** A session ended: its open connections on this instance close with 4401. */
  async closeSession(sessionId: string): Promise<void> {
    await this.forEachConnection((connection) => {
      if (connection.sessionId === sessionId) connection.closeSignedOut();
    });
  }

  private async forEachConnection(visit: (connection: SyncConnection) => void): Promise<void> {
    const hosts = await Promise.allSettled(this.hosts.values());
    for (const host of hosts) {
      if (host.status !== 'fulfilled') continue;
      for (const subscriber of host.value.subscribers) if (subscriber instanceof SyncConnection) visit(subscriber);
    }
  }

  private evict(broken: DocumentHost): void {
    void this.hosts.get(broken.name)?.then((current) => {
      if (current === broken) this.hosts.delete(broken.name);
      broken.destroy();
    });
  }

  async close(): Promise<void> {
    const hosts = await Promise.allSettled(this.hosts.values());
    for (const host of hosts) if (host.status === 'fulfilled') host.value.destroy();
    this.hosts.clear();
  }
}
