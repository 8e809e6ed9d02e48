import type { RanchDb } from '../../data/db.ts';
import { dueMarks, type DueMarks, type DueUser } from './due-marks.ts';
import { loadDue, type DueRow } from './load-due.ts';

/** The most lines a page shows (the bell's panel; the Dashboard's card shows 8). */
export const DUE_SHOWN = 50;

/** `user`: the bell's read, with the dot's and the notifications' bookkeeping (due-marks.ts). */
export type DueRequest = { today: string; limit: number; user?: DueUser };

/**
 * What is due as the page gets it ([K4]): the first `limit` rows in the list's order, how
 * many there are, and for the bell its marks. Bounded however many items are due: a ranch
 * has thousands, and turning thousands of rows into objects on the page is a long task on a
 * phone.
 */
export type DueAnswer = { rows: DueRow[]; total: number; marks?: DueMarks };

export async function readDue(db: RanchDb, request: DueRequest): Promise<DueAnswer> {
  const all = await loadDue(db, request.today);
  const answer: DueAnswer = { rows: all.slice(0, request.limit), total: all.length };
  if (request.user) answer.marks = await dueMarks(db, all, request.user);
  return answer;
}

/** A request as it arrives over the RPC: whatever was sent, one the host can read. */
export function asDueRequest(value: unknown): DueRequest {
  const sent = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  // Never more than a page shows, whatever was asked (Infinity, 1e9): the answer stays bounded.
  const limit = typeof sent.limit === 'number' && sent.limit >= 0 ? Math.min(DUE_SHOWN, Math.floor(sent.limit)) : DUE_SHOWN;
  const request: DueRequest = { today: String(sent.today), limit };
  const user = sent.user as Record<string, unknown> | undefined;
  if (typeof user === 'object' && user !== null && typeof user.id === 'string') {
    request.user = { id: user.id, notify: user.notify === true, maintenanceAlerts: user.maintenanceAlerts === true };
  }
  return request;
}
