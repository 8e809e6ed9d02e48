import type { Collection } from './doc-layout.ts';

/**
 * [T1] [T2] One field of one change in a record's history, as `GET /api/history/…` answers it
 * (docs/api.md). A create or delete lists every field it set or removed.
 */
export type HistoryChange = {
  /** Orders changes: a higher id was recorded later. A decimal string. */
  id: string;
  /** The log position of the commit that recorded it, and the change's place in that commit. */
  seq: string;
  step: number;
  collection: Collection;
  entityId: string;
  kind: 'create' | 'update' | 'delete';
  field: string;
  /** The field's value before and after, as the REST reads give it (null: not set). */
  before: unknown;
  after: unknown;
  /** Who sent the change (null: the server's own correction) and their name then known. */
  userId: string | null;
  userName: string | null;
  /** When the server made it durable (the truth), ISO. */
  serverTime: string;
  /** The device's claim of when it was made ([T5]), never trusted; null when it made none. */
  deviceTime: string | null;
  /**
   * [T6] Set when this write met another person's write of the same field, neither having
   * seen the other (a conflict, `GET /api/conflicts`); null (or absent) otherwise.
   */
  conflict?: HistoryConflictMark | null;
};

/**
 * [T6] A change that was written at the same time as another; both are marked. `kept:
 * false` on the later one marks a write the merge dropped: it is still listed (before = the
 * value kept, after = the value dropped) but the record never held its value; on the earlier
 * one, a value the later write replaced.
 */
export type HistoryConflictMark = {
  /** The conflict's id (`Conflict.id`). */
  id: string;
  /** Whether the merge kept this write's value. */
  kept: boolean;
  /** The write it met: its value, who made it (null: unknown) and that person's name. */
  otherValue: unknown;
  otherUserId: string | null;
  otherUserName: string | null;
  /** Whether the conflict is still open (no later write of the field has settled it). */
  open: boolean;
};

export type HistoryPage = { changes: HistoryChange[]; nextBefore: string | null };

/** What one page of history holds at most, and by default. */
export const HISTORY_MAX_LIMIT = 200;
export const HISTORY_DEFAULT_LIMIT = 50;
