import type { Sql } from '../db/client.ts';

/**
 * The newest log position of each document that this instance knows of: its own commits,
 * and other instances' commits as their notifications arrive. Answers without asking
 * Postgres while the knowledge is complete — always when this instance is alone (embedded
 * Postgres), while listening when it shares Postgres with others. Otherwise, or for a
 * document not yet seen, it reads the position from Postgres.
 */
export class DocumentVersions {
  private readonly known = new Map<string, bigint>();
  /** The ledger's head as this instance knows it (ledger/store.ts; its own pushes and the others' notices). */
  private ledger: bigint | undefined;

  constructor(
    private readonly sql: Sql,
    private complete: boolean,
  ) {}

  advance(name: string, seq: bigint): void {
    if (seq > (this.known.get(name) ?? -1n)) this.known.set(name, seq);
  }

  advanceLedger(seq: bigint): void {
    if (seq > (this.ledger ?? -1n)) this.ledger = seq;
  }

  /** Listening started (true) or may have missed notifications (false). */
  setComplete(complete: boolean): void {
    this.complete = complete;
    if (!complete) {
      this.known.clear();
      this.ledger = undefined;
    }
  }

  /** The ledger's head: what answers computed from the ledger's projection rows depend on besides the document. */
  async ledgerHead(): Promise<bigint> {
    if (this.complete && this.ledger !== undefined) return this.ledger;
    const [row] = await this.sql<{ head: string }[]>`select coalesce(max(seq), 0)::text as head from ledger`;
    const head = BigInt(row?.head ?? 0);
    if (this.complete) this.advanceLedger(head);
    return head;
  }

  async current(name: string): Promise<bigint> {
    const known = this.known.get(name);
    if (this.complete && known !== undefined) return known;
    const [row] = await this.sql<{ last_seq: string }[]>`select last_seq from docs where name = ${name}`;
    const seq = BigInt(row?.last_seq ?? 0);
    if (this.complete) this.advance(name, seq);
    return seq;
  }
}
