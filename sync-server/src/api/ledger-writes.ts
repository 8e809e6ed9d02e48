import type * as Y from 'yjs';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import { checkRecord } from '../ledger/entries.ts';
import { pushEntries } from '../ledger/push.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import type { EntityFields, LedgerCollection } from '../../../shared/index.ts';

/**
 * A REST write of a sale, payment or correction: one ledger entry (docs/sync-rules.md "Ledger"),
 * pushed as a device pushes it, with REST's strict answers. `make` runs in the document host's
 * queue, before the append: what it reads — the document's horses and buyers, the ledger's
 * tables — is what the entry is then judged against, and it throws the 400, 404 and 409 that
 * REST answers where the ledger would keep an entry and flag it. Resolves with the record stored.
 */
export async function recordThroughLedger(
  sql: Sql,
  registry: DocumentRegistry,
  userId: string,
  collection: Exclude<LedgerCollection, 'careEntries'>,
  make: (doc: Y.Doc) => Promise<EntityFields & { id: string }>,
): Promise<EntityFields & { id: string }> {
  let made: (EntityFields & { id: string }) | undefined;
  const appended = await pushEntries(sql, registry, userId, async (doc) => {
    made = await make(doc);
    const { id, ...record } = made;
    const checked = checkRecord({ id, collection, record });
    if ('problem' in checked) throw apiError(400, checked.problem);
    return [{ entry: checked, recordedBy: userId }];
  });
  const [result] = appended.results;
  if (!made || !result) throw new Error('The ledger append did not run');
  if (result.outcome === 'refused') throw apiError(result.status, result.message);
  return made;
}
