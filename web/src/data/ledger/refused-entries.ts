import { addNoticeBatch, type NoticeStore, type RanchNotice } from '../compensation-notices.ts';
import type { RanchDb } from '../db.ts';
import { isLedgerRepository } from './ledger-rows.ts';
import { readRefusedEntries } from './waiting-entries.ts';

/**
 * [S19] Tells again, at a start, the entries the server refused that the person has not
 * dismissed: each stays in the outbox, marked, until then (push.ts), so a notice lost with a
 * closed page is never the only word of it.
 */
export async function tellRefused(db: RanchDb, notices: NoticeStore): Promise<void> {
  const told: RanchNotice[] = [];
  for (const intent of await readRefusedEntries(db)) {
    const id = intent.creates[0];
    if (!isLedgerRepository(intent.repository) || id === undefined || intent.seq === undefined) continue;
    const fields = intent.entry as RanchNotice['fields'];
    told.push({ collection: intent.repository, id, action: 'refused', fields, reason: intent.refused!, intent: intent.seq });
  }
  if (told.length > 0) addNoticeBatch(notices, told);
}

/** [S19] The person dismissed a refused entry's notice: its outbox row goes, and the notice with it. */
export async function dismissRefused(db: RanchDb, notices: NoticeStore, intent: number): Promise<void> {
  const seq = Number(intent);
  if (!Number.isSafeInteger(seq)) return;
  await db.transaction('rw', db.outbox, async () => {
    const row = await db.outbox.get(seq);
    if (typeof row?.refused === 'string') await db.outbox.delete(seq);
  });
  const batches = notices
    .get()
    .batches.map((batch) => ({ ...batch, notices: batch.notices.filter((notice) => notice.intent !== seq) }))
    .filter((batch) => batch.notices.length > 0);
  notices.set({ batches });
}
