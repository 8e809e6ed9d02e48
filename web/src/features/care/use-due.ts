import { RECHECK_MS, useRecheckedRead } from '../../data/use-rechecked-read.ts';
import { localToday } from '../../lib/local-today.ts';
import type { DueAnswer } from './due-answer.ts';
import { readBellDue } from './due-notifications.ts';

export type { DueRow } from './load-due.ts';
export type { DueAnswer } from './due-answer.ts';

/** The tables what is due is read from. */
const WATCHED = ['horseCare', 'sales', 'salePayments', 'payments', 'corrections', 'horses', 'buyers'];
/** After a change, what is due is read again at most this often (a first sync writes many batches). */
export const DUE_RECHECK_MS = RECHECK_MS;

/**
 * What is due, its first `limit` rows and how many (due-answer.ts); undefined while the first
 * read runs; read again after care, sales, payments or names change, at most every
 * DUE_RECHECK_MS (use-rechecked-read.ts): the bell is on every screen and a ranch has tens of
 * thousands of care entries.
 */
export function useDue(limit: number): DueAnswer | undefined {
  return useRecheckedRead((data) => data.loadDue({ today: localToday(), limit }), WATCHED, 'what is due');
}

/** The bell's: also whether something new is due for `userId`, and its notifications ([K7], due-notifications.ts). */
export function useBellDue(userId: string): DueAnswer | undefined {
  return useRecheckedRead((data) => readBellDue(data, userId, localToday()), WATCHED, 'what is due');
}
