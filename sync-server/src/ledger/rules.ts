import {
  saleMoneyBySale,
  saleStanding,
  toCents,
  type LedgerCollection,
  type LedgerFlag,
  type MoneyCorrection,
  type SaleTerms,
} from '../../../shared/index.ts';
import type { CheckedEntry } from './entries.ts';

/** An entry of the ledger as the rules see it (stored, or recorded earlier in the same push). */
export type KnownEntry = { id: string; collection: LedgerCollection; record: Record<string, unknown> };

/** Where a horse or buyer a sale or care entry names stands in the document. */
export type Presence = 'present' | 'deleted' | 'unknown';

/** What the rules may ask of the document (horses, buyers) besides the ledger. */
export type DocumentFacts = { presence(collection: 'horses' | 'buyers', id: string): Presence };

/** The verdict on one entry: refused (nothing stored), or kept with the rules it broke after the fact. */
export type Judgement = { refused: { status: 400 | 404; message: string } } | { flags: LedgerFlag[] };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The ledger's rules (docs/sync-rules.md "Ledger", docs/product.md [P13]): what a pushed entry
 * names must exist — a horse or buyer in the document (or deleted from it meanwhile: kept and
 * flagged), a sale or payment in the ledger — and every money rule REST refuses with 409 is,
 * for an entry, kept and flagged, because the fact it records happened. Holds the ledger's
 * entries the push touches, and learns each entry recorded so that the next is judged after it.
 */
export class LedgerRules {
  private readonly byId = new Map<string, KnownEntry>();
  /** Payments and corrections by the sale they name; sales by their horse. */
  private readonly bySale = new Map<string, KnownEntry[]>();
  private readonly salesByHorse = new Map<string, KnownEntry[]>();

  constructor(
    known: Iterable<KnownEntry>,
    private readonly document: DocumentFacts,
  ) {
    for (const entry of known) this.learn(entry);
  }

  learn(entry: KnownEntry): void {
    if (this.byId.has(entry.id)) return;
    this.byId.set(entry.id, entry);
    const [index, key] = entry.collection === 'sales' ? [this.salesByHorse, entry.record.horseId] : [this.bySale, entry.record.saleId];
    if (typeof key !== 'string') return;
    const list = index.get(key);
    if (list) list.push(entry);
    else index.set(key, [entry]);
  }

  judge(entry: CheckedEntry): Judgement {
    const { record } = entry;
    switch (entry.collection) {
      case 'sales':
        return this.judgeSale(entry.id, record);
      case 'careEntries':
        return this.named('horses', text(record.horseId), 'horseId', []);
      case 'payments':
        return this.judgePayment(record);
      case 'corrections':
        return this.judgeCorrection(record);
    }
  }

  private judgeSale(id: string, record: Record<string, unknown>): Judgement {
    const flags: LedgerFlag[] = [];
    const horse = this.named('horses', text(record.horseId), 'horseId', flags);
    if ('refused' in horse) return horse;
    const buyer = this.named('buyers', text(record.buyerId), 'buyerId', flags);
    if ('refused' in buyer) return buyer;
    if (this.standingSalesOf(text(record.horseId)).some((sale) => sale.id !== id)) flags.push('horseAlreadySold');
    if (record.termsMonths === 0 && toCents(text(record.downPayment)) < toCents(text(record.salePrice))) flags.push('paidInFullShort');
    return { flags };
  }

  private judgePayment(record: Record<string, unknown>): Judgement {
    const saleId = text(record.saleId);
    const sale = this.entry('sales', saleId);
    if (!sale) return { refused: { status: 404, message: 'saleId: no such sale in the ledger' } };
    const standing = this.standingOf(sale);
    if (standing.status === 'Cancelled') return { flags: ['saleCancelled'] };
    return { flags: toCents(text(record.amount)) > standing.balanceCents ? ['overpaid'] : [] };
  }

  private judgeCorrection(record: Record<string, unknown>): Judgement {
    const saleId = text(record.saleId);
    const sale = this.entry('sales', saleId);
    if (!sale) return { refused: { status: 404, message: 'saleId: no such sale in the ledger' } };
    const corrections = this.correctionsOf(saleId);
    if (record.kind === 'void') {
      const paymentId = text(record.paymentId);
      const payment = this.entry('payments', paymentId);
      if (!payment) return { refused: { status: 404, message: 'paymentId: no such payment in the ledger' } };
      if (payment.record.saleId !== saleId) return { refused: { status: 400, message: 'paymentId: a payment of another sale' } };
      return { flags: corrections.some((c) => c.kind === 'void' && c.paymentId === paymentId) ? ['alreadyVoid'] : [] };
    }
    if (record.kind === 'cancel') return { flags: corrections.some((c) => c.kind === 'cancel') ? ['alreadyCancelled'] : [] };
    return { flags: toCents(text(record.amount)) > this.standingOf(sale).creditCents ? ['beyondCredit'] : [] };
  }

  /** A horse or buyer named: present, deleted meanwhile (kept, flagged), or never known (refused). */
  private named(collection: 'horses' | 'buyers', id: string, field: string, flags: LedgerFlag[]): Judgement {
    const presence = this.document.presence(collection, id);
    if (presence === 'unknown')
      return { refused: { status: 404, message: `${field}: no such ${collection === 'horses' ? 'horse' : 'buyer'}` } };
    if (presence === 'deleted') flags.push(collection === 'horses' ? 'horseDeleted' : 'buyerDeleted');
    return { flags };
  }

  /** The entry `id` of `collection`, if the ledger (or this push so far) holds it. */
  entry(collection: LedgerCollection, id: string): KnownEntry | undefined {
    const found = this.byId.get(id);
    return found?.collection === collection ? found : undefined;
  }

  private entriesOf(collection: LedgerCollection, saleId: string): KnownEntry[] {
    return (this.bySale.get(saleId) ?? []).filter((entry) => entry.collection === collection);
  }

  private correctionsOf(saleId: string): MoneyCorrection[] {
    return this.entriesOf('corrections', saleId).map(({ record }) => ({
      kind: text(record.kind),
      saleId,
      paymentId: typeof record.paymentId === 'string' ? record.paymentId : null,
      amount: typeof record.amount === 'string' ? record.amount : null,
    }));
  }

  private standingOf(sale: KnownEntry) {
    const payments = this.entriesOf('payments', sale.id).map(({ id, record }) => ({ id, saleId: sale.id, amount: text(record.amount) }));
    const money = saleMoneyBySale(payments, this.correctionsOf(sale.id)).get(sale.id) ?? 0;
    return saleStanding(sale.record as SaleTerms, money);
  }

  /** [S4] The sales of the horse no cancellation names. */
  private standingSalesOf(horseId: string): KnownEntry[] {
    return (this.salesByHorse.get(horseId) ?? []).filter((sale) => !this.correctionsOf(sale.id).some((c) => c.kind === 'cancel'));
  }
}
