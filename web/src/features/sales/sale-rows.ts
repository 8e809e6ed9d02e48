import { useLiveQuery } from 'dexie-react-hooks';
import {
  keptCents,
  pastDueCents,
  saleMoneyBySale,
  saleStanding,
  saleStandingLabel,
  type Correction,
  type Horse,
  type LedgerFlag,
  type Payment,
  type SaleStanding,
  type SaleStandingLabel,
  type StoredSale,
} from '../../../../shared/index.ts';
import { localToday } from '../../lib/local-today.ts';
import { useRanchData } from '../../data/context.tsx';
import type { Buyer, RanchDb } from '../../data/db.ts';
import { allPayments, paymentsOfSales } from '../../data/ledger/read-payments.ts';
import { contactName } from '../contacts/contact-name.ts';
import { readByNameInPages } from '../horses/read-in-pages.ts';
import type { Choice } from '../../ui/ChoicePicker.tsx';

/**
 * A sale with names and its standing (shared saleStanding: status, paid after the down
 * payment, balance with interest), and on the viewer's date [S16] its label (Paid, Open or
 * Past due; Cancelled, [S17]) and what is past due ([S10]).
 */
export type SaleRow = StoredSale &
  SaleStanding & {
    /** [P13] From the ledger: the rules the sale broke on arrival (none for a sale of the document). */
    flags?: LedgerFlag[];
    horseName: string;
    buyerName: string;
    standing: SaleStandingLabel | 'Cancelled';
    pastDueCents: number;
    today: string;
  };

/** `voided`: the void that names the payment ([P10]), which then counts nowhere. */
export type PaymentRow = Payment & { horseName: string; buyerName: string; sale: StoredSale | undefined; voided: Correction | undefined };

const buyerName = (buyer: Buyer | undefined) => (buyer ? contactName(buyer) : 'Unknown buyer');
const horseName = (horse: Horse | undefined) => horse?.name ?? 'Unknown horse';

/** Sales, newest first, with names, what was paid and the derived status (shared saleStatus). */
export async function loadSaleRows(db: RanchDb, today: string = localToday()): Promise<SaleRow[]> {
  // Read by primary key and sorted here: a live query remembers rows read through another
  // index one key at a time (readByNameInPages says more).
  const sales = (await db.sales.toArray()).sort(newestSaleFirst);
  const ids = sales.map((sale) => sale.id);
  const [horses, buyers, payments, corrections] = await Promise.all([
    db.horses.bulkGet([...new Set(sales.map((sale) => sale.horseId))]),
    db.buyers.bulkGet([...new Set(sales.map((sale) => sale.buyerId))]),
    paymentsOfSales(db, ids),
    db.corrections.toArray(),
  ]);
  const horsesById = new Map(horses.filter((h): h is Horse => h !== undefined).map((h) => [h.id, h]));
  const buyersById = new Map(buyers.filter((b): b is Buyer => b !== undefined).map((b) => [b.id, b]));
  const money = saleMoneyBySale(payments, corrections);
  return sales.map((sale) => {
    const standing = saleStanding(sale, money.get(sale.id) ?? 0);
    const kept = keptCents(money.get(sale.id));
    const cancelled = standing.status === 'Cancelled';
    return {
      ...sale,
      horseName: horseName(horsesById.get(sale.horseId)),
      buyerName: buyerName(buyersById.get(sale.buyerId)),
      ...standing,
      standing: cancelled ? ('Cancelled' as const) : saleStandingLabel(sale, kept, today),
      pastDueCents: cancelled ? 0 : pastDueCents(sale, kept, today),
      today,
    };
  });
}

/** By createdAt, newest first; on one time, the higher id first (the createdAt index, reversed). */
function newestSaleFirst(a: StoredSale, b: StoredSale): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** undefined while the first query runs. */
export function useSaleRows(): SaleRow[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(() => loadSaleRows(db), [db]);
}

/** Most recent date first; on one date, the later payment (ids grow with time) first. */
const newestFirst = (a: Payment, b: Payment) => (a.date !== b.date ? (a.date < b.date ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Payments, most recent date first, with the sale's horse and buyer names. */
export function usePaymentRows(): PaymentRow[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(async () => {
    const [payments, voids] = await Promise.all([
      allPayments(db).then((payments) => payments.sort(newestFirst)),
      db.corrections.toArray().then((rows) => new Map(rows.filter((row) => row.kind === 'void').map((row) => [row.paymentId, row]))),
    ]);
    const sales = await db.sales.bulkGet([...new Set(payments.map((payment) => payment.saleId))]);
    const salesById = new Map(sales.filter((s): s is StoredSale => s !== undefined).map((s) => [s.id, s]));
    const [horses, buyers] = await Promise.all([
      db.horses.bulkGet([...new Set([...salesById.values()].map((sale) => sale.horseId))]),
      db.buyers.bulkGet([...new Set([...salesById.values()].map((sale) => sale.buyerId))]),
    ]);
    const horsesById = new Map(horses.filter((h): h is Horse => h !== undefined).map((h) => [h.id, h]));
    const buyersById = new Map(buyers.filter((b): b is Buyer => b !== undefined).map((b) => [b.id, b]));
    return payments.map((payment) => {
      const sale = salesById.get(payment.saleId);
      return {
        ...payment,
        sale,
        horseName: horseName(sale && horsesById.get(sale.horseId)),
        buyerName: buyerName(sale && buyersById.get(sale.buyerId)),
        voided: voids.get(payment.id),
      };
    });
  }, [db]);
}

export type SaleChoices = {
  /** [S4]: horses with a status, and ([S18]) not named by a sale that stands. */
  horses: Horse[];
  /** The horses and buyers as the form's pickers list them, made with the read, not as the form opens. */
  horsePicks: Choice[];
  buyerPicks: Choice[];
};

/** What the sale form offers. */
export function useSaleChoices(): SaleChoices | undefined {
  const { db } = useRanchData();
  return useLiveQuery(async () => {
    const [horses, buyers, sales, cancellations] = await Promise.all([
      readByNameInPages(db),
      db.buyers.orderBy('lastName').toArray(),
      db.sales.toArray(),
      db.corrections.toArray().then((rows) => new Set(rows.filter((row) => row.kind === 'cancel').map((row) => row.saleId))),
    ]);
    // [S18] A horse whose sale stands is sold; a cancelled sale's horse is offered again.
    const sold = new Set(sales.filter((sale) => !cancellations.has(sale.id)).map((sale) => sale.horseId));
    const offered = horses.filter((horse) => horse.statusId !== null && !sold.has(horse.id));
    return {
      horses: offered,
      horsePicks: offered.map((horse) => ({ id: horse.id, label: horse.name })),
      buyerPicks: buyers.map((buyer) => ({ id: buyer.id, label: contactName(buyer) })),
    };
  }, [db]);
}

/** [P10]–[P12] [S17] A sale's corrections, oldest first, for its details. */
export function useSaleCorrections(saleId: string): Correction[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(
    async () => (await db.corrections.where('saleId').equals(saleId).toArray()).sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1)),
    [db, saleId],
  );
}
