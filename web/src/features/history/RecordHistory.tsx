import type { Collection } from '../../../../shared/index.ts';
import { byline, entryLines, groupChanges } from './history-text.ts';
import { useHistory, useReferenceNames } from './use-history.ts';

/** [T3] The line shown under a history the device could not fetch now. */
export const OFFLINE_HISTORY_NOTE =
  'Offline: this is the history as last fetched. Changes made on this device that the server has not received yet are not shown.';

/**
 * [T3] A record's History: each change newest first, "<field> changed from X to Y — <name>,
 * <server time> (device: <time>)", created and deleted entries; a sale's shows its payments.
 * Offline, what the device last fetched, with OFFLINE_HISTORY_NOTE.
 */
export function RecordHistory({ collection, id }: { collection: Collection; id: string }) {
  const { changes, offline } = useHistory(`${collection}/${id}`);
  const names = useReferenceNames(changes);
  const entries = changes ? groupChanges(changes) : [];
  return (
    <section aria-label="History">
      <h3 className="mb-2 font-semibold">History</h3>
      {changes === undefined ? (
        <p className="text-base-content/60">Loading history…</p>
      ) : entries.length === 0 ? (
        <p className="text-base-content/60">No changes recorded yet</p>
      ) : (
        <ul className="space-y-1 text-sm" aria-label="Changes">
          {entries.flatMap((entry) =>
            entryLines(entry, names, collection).map((line) => (
              <li key={`${entry.key}/${line}`}>
                {line}
                <span className="text-base-content/60">{byline(entry)}</span>
              </li>
            )),
          )}
        </ul>
      )}
      {offline && <p className="mt-2 text-xs text-base-content/60">{OFFLINE_HISTORY_NOTE}</p>}
    </section>
  );
}
