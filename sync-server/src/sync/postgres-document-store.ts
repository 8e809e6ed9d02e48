import type { Sql, Tx } from '../db/client.ts';
import type { Collection } from '../../../shared/index.ts';
import type { DocumentAccess, DocumentStore, LockedDocument, LoggedUpdate, Projection } from './document-store.ts';
import { DocumentEpoch } from './epoch.ts';
import { appendUpdates, compactDocument, readUpdatesSince, UPDATES_CHANNEL } from './persistence.ts';
import { lastValidStates } from './projection.ts';

/** The reads and the append, through a pool or one transaction. */
class PostgresAccess implements DocumentAccess {
  constructor(protected readonly sql: Sql | Tx) {}

  readSince(name: string, afterSeq: bigint) {
    return readUpdatesSince(this.sql, name, afterSeq);
  }

  lastValid(collection: Collection, ids: string[]) {
    return lastValidStates(this.sql, collection, ids);
  }

  append(name: string, expectedSeq: bigint, updates: LoggedUpdate[], { doc, changes, history }: Projection) {
    return appendUpdates(this.sql, name, expectedSeq, updates, doc, changes, history);
  }
}

/**
 * The document store in Postgres (embedded PGlite through its socket, or a real server):
 * tables docs, doc_updates, doc_snapshots and the projection (persistence.ts, projection.ts).
 * The log lock is the `docs` row lock; appends NOTIFY on UPDATES_CHANNEL in their statement.
 */
export class PostgresDocumentStore extends PostgresAccess implements DocumentStore {
  constructor(protected override readonly sql: Sql) {
    super(sql);
  }

  async load(name: string) {
    await this.sql`insert into docs (name) values (${name}) on conflict (name) do nothing`;
    return readUpdatesSince(this.sql, name, 0n);
  }

  async epoch(name: string) {
    const [row] = await this.sql<{ epoch: string; retired_clients: Uint8Array | null }[]>`
      select epoch, retired_clients from docs where name = ${name}`;
    return row ? DocumentEpoch.fromStored(row.epoch, row.retired_clients) : new DocumentEpoch();
  }

  compact(name: string, state: Uint8Array, uptoSeq: bigint) {
    return compactDocument(this.sql, name, state, uptoSeq);
  }

  locked<T>(name: string, job: (document: LockedDocument) => Promise<T>): Promise<T> {
    return this.sql.begin(async (tx) => {
      const [row] = await tx<{ last_seq: string; checked_rules: number }[]>`
        select last_seq, checked_rules from docs where name = ${name} for update`;
      if (!row) throw new Error(`Document ${name} is not registered`);
      const document = Object.assign(new PostgresAccess(tx), {
        position: BigInt(row.last_seq),
        checkedRules: row.checked_rules,
        async setCheckedRules(version: number) {
          await tx`update docs set checked_rules = ${version} where name = ${name}`;
        },
      });
      return job(document);
    }) as Promise<T>;
  }

  async positions() {
    const rows = await this.sql<{ name: string; last_seq: string }[]>`select name, last_seq from docs`;
    return new Map(rows.map((row) => [row.name, BigInt(row.last_seq)]));
  }

  async listen(onAppend: (name: string, seq: bigint) => void, onListening?: () => void) {
    const subscription = await this.sql.listen(
      UPDATES_CHANNEL,
      (payload) => {
        const [doc, seq] = payload.split(' ');
        if (doc && seq && /^\d+$/.test(seq)) onAppend(doc, BigInt(seq));
      },
      onListening,
    );
    return () => subscription.unlisten();
  }
}
