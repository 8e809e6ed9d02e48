import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useState } from 'react';
import { useRanchData } from '../../data/context.tsx';
import { localToday } from '../../lib/local-today.ts';
import type { DueRow } from './load-due.ts';

export type { DueRow } from './load-due.ts';

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
  const data = useRanchData();
  const { db } = data;
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
        const due = await data.loadDue(localToday());
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
  }, [data, db]);
  return rows;
}
