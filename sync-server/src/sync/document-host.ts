import * as Y from 'yjs';
import type { Sql } from '../db/client.ts';
import { observeEntities, type EntityChanges } from '../../../shared/index.ts';
import { type ChangeOrigin, originUserId } from './origin.ts';
import { appendUpdate, loadDocument } from './persistence.ts';

/** Someone who receives the document's updates: a WebSocket connection. */
export type Subscriber = {
  id: number;
  sendUpdate(update: Uint8Array): void;
  /** The document can no longer be trusted in memory; the subscriber must reconnect. */
  closeUnavailable(): void;
};

/** Thrown to writers when the document could not be persisted; they should retry later. */
export class DocumentUnavailableError extends Error {}

/**
 * One document in memory, kept equal to what is durable in Postgres. Every operation on it
 * runs through one serial queue, so nobody reads state that is not yet committed: an update
 * is applied, logged and projected in one Postgres transaction, and broadcast only after.
 */
export class DocumentHost {
  readonly subscribers = new Set<Subscriber>();
  private tail: Promise<unknown> = Promise.resolve();
  private pendingChanges: EntityChanges = new Map();
  private broken = false;
  private readonly stopObserving: () => void;

  private constructor(
    private readonly sql: Sql,
    readonly name: string,
    readonly doc: Y.Doc,
    private readonly onBroken: (host: DocumentHost) => void,
  ) {
    this.stopObserving = observeEntities(doc, (changes) => {
      for (const [collection, ids] of changes) {
        const known = this.pendingChanges.get(collection);
        if (known) ids.forEach((id) => known.add(id));
        else this.pendingChanges.set(collection, new Set(ids));
      }
    });
  }

  static async load(sql: Sql, name: string, onBroken: (host: DocumentHost) => void): Promise<DocumentHost> {
    const { doc } = await loadDocument(sql, name, { kind: 'load' } satisfies ChangeOrigin);
    return new DocumentHost(sql, name, doc, onBroken);
  }

  /** Runs `job` after everything queued before it. */
  run<T>(job: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(() => {
      if (this.broken) throw new DocumentUnavailableError('The document is being reloaded; try again.');
      return job();
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * Applies `change` as one Yjs transaction, persists the resulting update, then
   * broadcasts it. Resolves with the update, or null when the change added nothing new.
   */
  commit(change: (doc: Y.Doc) => void, origin: ChangeOrigin): Promise<Uint8Array | null> {
    return this.run(async () => {
      const captured: Uint8Array[] = [];
      const capture = (update: Uint8Array) => captured.push(update);
      this.doc.on('update', capture);
      try {
        this.doc.transact(() => change(this.doc), origin);
      } finally {
        this.doc.off('update', capture);
      }
      const changes = this.pendingChanges;
      this.pendingChanges = new Map();
      if (captured.length === 0) return null;
      const update = captured.length === 1 ? captured[0]! : Y.mergeUpdates(captured);
      try {
        await appendUpdate(this.sql, this.name, update, originUserId(origin), this.doc, changes);
      } catch (error) {
        // The in-memory document now holds a change Postgres does not: drop it and let
        // devices reconnect to a fresh copy; they still hold their change and resend it.
        this.markBroken();
        throw new DocumentUnavailableError(`Could not save the change: ${(error as Error).message}`);
      }
      for (const subscriber of this.subscribers) {
        if (origin.kind === 'connection' && origin.connectionId === subscriber.id) continue;
        subscriber.sendUpdate(update);
      }
      return update;
    });
  }

  private markBroken(): void {
    if (this.broken) return;
    this.broken = true;
    this.stopObserving();
    for (const subscriber of this.subscribers) subscriber.closeUnavailable();
    this.subscribers.clear();
    this.onBroken(this);
  }

  destroy(): void {
    this.stopObserving();
    this.doc.destroy();
  }
}
