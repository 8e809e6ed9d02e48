import { RECHECK_MS, useRecheckedRead } from '../../data/use-rechecked-read.ts';
import { localToday } from '../../lib/local-today.ts';
import type { DueRow } from './load-due.ts';

export type { DueRow } from './load-due.ts';

/** The tables what is due is read from. */
const WATCHED = ['careEntries', 'sales', 'salePayments', 'horses', 'buyers'];
/** After a change, what is due is read again at most this often (a first sync writes many batches). */
export const DUE_RECHECK_MS = RECHECK_MS;

/**
 * undefined while the first read runs; read again after care, sales, payments or names
 * change, at most every DUE_RECHECK_MS (use-rechecked-read.ts): the bell is on every screen
 * and a ranch has tens of thousands of care entries.
 */
export function useDue(): DueRow[] | undefined {
  return useRecheckedRead((data) => data.loadDue(localToday()), WATCHED, 'what is due');
}
