import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useState } from 'react';
import { CARE_KIND_LABELS, careDue, paidCentsBySale, salesPastDue, type CareDue, type SaleDue } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import type { RanchDb } from '../../data/db.ts';
import { flattenPayments } from '../../data/sale-payments.ts';
import { localToday } from '../../lib/local-today.ts';
import { contactName } from '../contacts/contact-name.ts';
import { centsText, dateText } from '../sales/sale-display.ts';

/** One line of the bell and the Dashboard's "Due soon" card ([K4]), with what a person reads. */
export type DueRow = (CareDue | SaleDue) & { title: string; detail: string; overdue: boolean };

function careRow(due: CareDue, horseName: string): DueRow {
  const kind = CARE_KIND_LABELS[due.kind];
  return {
    ...due,
    title: `${kind} ${due.overdue ? 'overdue' : 'due'}: ${horseName}`,
    detail: `${due.overdue ? 'Was due' : 'Due'} ${dateText(due.dueOn)}`,
  };
}

function saleRow(due: SaleDue, horseName: string, buyerName: string): DueRow {
  return {
    ...due,
    overdue: true,
    title: `Installment past due: ${horseName}`,
    detail: `${centsText(due.pastDueCents)} from ${buyerName}, due since ${dateText(due.since)}`,
  };
}

/**
 * What is due on `today` (the person's calendar date): care whose latest entry's next due date
 * is past or within 14 days, and sales with an installment past due (shared careDue and
 * salesPastDue). Overdue care first, then installments, then what is due soon.
 */
export async function loadDue(db: RanchDb, today: string = localToday()): Promise<DueRow[]> {
  const [entries, sales, payments] = await Promise.all([
    db.careEntries.toArray(),
    db.sales.toArray(),
    db.salePayments.toArray().then(flattenPayments),
  ]);
  const paid = paidCentsBySale(payments);
  const care = careDue(entries, today);
  const owed = salesPastDue(sales, (id) => paid.get(id) ?? 0, today);
  const horseIds = [...new Set([...care.map((due) => due.horseId), ...owed.map((due) => due.horseId)])];
  const [horses, buyers] = await Promise.all([db.horses.bulkGet(horseIds), db.buyers.bulkGet(owed.map((due) => due.buyerId))]);
  const horseName = new Map(horses.flatMap((horse) => (horse ? [[horse.id, horse.name] as const] : [])));
  const name = (id: string) => horseName.get(id) ?? 'Unknown horse';
  const careRows = care.map((due) => careRow(due, name(due.horseId)));
  const saleRows = owed.map((due, index) => {
    const buyer = buyers[index];
    return saleRow(due, name(due.horseId), buyer ? contactName(buyer) : 'Unknown buyer');
  });
  return [...careRows.filter((row) => row.overdue), ...saleRows, ...careRows.filter((row) => !row.overdue)];
}

/** The tables what is due is read from. */
const WATCHED = ['careEntries', 'sales', 'salePayments', 'horses', 'buyers'];
/** After a change, what is due is read again at most this often (a first sync writes many batches). */
export const DUE_RECHECK_MS = 500;

/**
 * undefined while the first read runs; read again after care, sales, payments or names
 * change, at most every DUE_RECHECK_MS. Not a live query: the bell is on every screen and a
 * ranch has tens of thousands of care entries, so a burst of writes (a first sync, another
 * device's farrier morning) costs one read, not one per batch.
 */
export function useDue(): DueRow[] | undefined {
  const { db } = useRanchData();
  const [rows, setRows] = useState<DueRow[]>();
  useEffect(() => {
    let stopped = false;
    let running = false;
    let again = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      if (timer === undefined) {
        timer = setTimeout(() => {
          timer = undefined;
          void run();
        }, DUE_RECHECK_MS);
      }
    };
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        const due = await loadDue(db);
        if (!stopped) setRows(due);
      } catch (error) {
        if (!stopped) console.error('Reading what is due failed', error);
      } finally {
        running = false;
        if (again && !stopped) {
          again = false;
          schedule();
        }
      }
    };
    const prefixes = WATCHED.map((table) => `idb://${db.name}/${table}/`);
    const onMutated = (parts: ObservabilitySet) => {
      if (Object.keys(parts).some((part) => prefixes.some((prefix) => part.startsWith(prefix)))) schedule();
    };
    Dexie.on.storagemutated.subscribe(onMutated);
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
      Dexie.on.storagemutated.unsubscribe(onMutated);
    };
  }, [db]);
  return rows;
}
