import type { Sql } from '../db/client.ts';

/** The document records a ledger sale names. */
export type NamedBySales = 'horses' | 'buyers';

/**
 * Which horses and buyers the ledger's sales name, in memory (docs/sync-rules.md §7 "What a
 * ledger sale keeps"): a horse or buyer a sale names may not be deleted from the document, as
 * when the sale was in the document (section 2, rule 1). Loaded once when the document host
 * starts, then told each sale this instance records (ledger/push.ts, in the host's queue, so a
 * deletion judged after a push sees its sales) and, on another instance's notice, reading the
 * sales after the last seq it read. No commit queries it. Memory: one entry per ledger sale.
 */
export class LedgerSaleIndex {
  private readonly counts: Record<NamedBySales, Map<string, number>> = { horses: new Map(), buyers: new Map() };
  private readonly known = new Set<string>();
  /** The largest seq read from the ledger (sales this instance recorded may be beyond it). */
  private readUpTo = 0n;
  private reading: Promise<void> = Promise.resolve();

  private constructor(private readonly sql: Sql) {}

  static async load(sql: Sql): Promise<LedgerSaleIndex> {
    const index = new LedgerSaleIndex(sql);
    await index.readAfter();
    return index;
  }

  /** How many ledger sales name the horse or buyer. */
  salesNaming(collection: NamedBySales, id: string): number {
    return this.counts[collection].get(id) ?? 0;
  }

  /** A sale now in the ledger (once: a sale learned twice counts once). */
  learn(saleId: string, record: Record<string, unknown>): void {
    if (this.known.has(saleId)) return;
    this.known.add(saleId);
    for (const [collection, field] of [
      ['horses', 'horseId'],
      ['buyers', 'buyerId'],
    ] as const) {
      const id = record[field];
      if (typeof id === 'string') this.counts[collection].set(id, this.salesNaming(collection, id) + 1);
    }
  }

  /** The ledger's head reached `head` (an instance's notice): reads the sales this index lacks. */
  catchUp(head: bigint): Promise<void> {
    if (head <= this.readUpTo) return this.reading;
    this.reading = this.reading
      .then(async () => {
        if (head <= this.readUpTo) return;
        await this.readAfter();
        // Entries up to a notice's head are committed (seq order is commit order): none is still to come.
        if (head > this.readUpTo) this.readUpTo = head;
      })
      .catch(() => {});
    return this.reading;
  }

  private async readAfter(): Promise<void> {
    const rows = await this.sql<{ seq: string; id: string; horseId: string | null; buyerId: string | null }[]>`
      select seq::text, id::text, record ->> 'horseId' as "horseId", record ->> 'buyerId' as "buyerId"
      from ledger where collection = 'sales' and seq > ${String(this.readUpTo)}::bigint order by seq`;
    for (const row of rows) {
      this.learn(row.id, { horseId: row.horseId, buyerId: row.buyerId });
      if (BigInt(row.seq) > this.readUpTo) this.readUpTo = BigInt(row.seq);
    }
  }
}
