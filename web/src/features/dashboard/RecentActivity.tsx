import { useLiveQuery } from 'dexie-react-hooks';
import type { Collection } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import { contactName } from '../contacts/contact-name.ts';
import { TimeAgo } from '../../ui/TimeAgo.tsx';
import { activityText, nameInEntry } from '../history/activity-text.ts';
import { groupChanges, type HistoryEntry } from '../history/history-text.ts';
import { OFFLINE_HISTORY_NOTE } from '../history/RecordHistory.tsx';
import { useHistory } from '../history/use-history.ts';

/** How many of the ranch's latest changes the card shows. */
export const RECENT_SHOWN = 5;

/** The current names of the records the entries are about, from what the device holds. */
function useRecordNames(entries: HistoryEntry[]): Map<string, string> {
  const { db } = useRanchData();
  const wanted = new Map<Collection, Set<string>>();
  for (const { collection, entityId } of entries) {
    if (collection === 'payments' || collection === 'sales' || collection === 'careEntries') continue;
    wanted.set(collection, (wanted.get(collection) ?? new Set()).add(entityId));
  }
  const key = entries.map((entry) => entry.key).join(';');
  return (
    useLiveQuery(async () => {
      const names = new Map<string, string>();
      for (const [collection, ids] of wanted) {
        const rows = await db.table<Record<string, unknown>, string>(collection).bulkGet([...ids]);
        for (const row of rows) {
          if (!row) continue;
          const name = typeof row.name === 'string' ? row.name : contactName(row);
          if (name) names.set(String(row.id), name);
        }
      }
      return names;
    }, [db, key]) ?? new Map()
  );
}

/**
 * [T4] The ranch's latest changes, newest first, each with who made it and how long ago
 * (the server's time); [D8]'s static entry 'System initialized' / 'Just now' stays last.
 */
export function RecentActivity() {
  const { changes, offline } = useHistory(`recent?limit=${RECENT_SHOWN * 12}`);
  const entries = groupChanges(changes ?? []).slice(0, RECENT_SHOWN);
  const names = useRecordNames(entries);
  const now = Date.now();
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="dashboard-recent-activity">
      <div className="card-body">
        <div className="flex items-center justify-between">
          <h2 id="dashboard-recent-activity" className="card-title">
            Recent Activity
          </h2>
          <button type="button" className="btn btn-ghost btn-sm">
            View All
          </button>
        </div>
        <ul aria-label="Recent changes">
          {entries.map((entry) => (
            <li key={entry.key} className="flex items-start gap-3 py-2">
              <span className="status status-info mt-2" aria-hidden="true" />
              <div>
                <p className="font-medium">{activityText(entry, names.get(entry.entityId) ?? nameInEntry(entry))}</p>
                <p className="text-sm text-base-content/60">
                  <TimeAgo at={Date.parse(entry.serverTime)} now={now} />
                </p>
              </div>
            </li>
          ))}
          <li className="flex items-start gap-3 py-2">
            <span className="status status-primary mt-2" aria-hidden="true" />
            <div>
              <p className="font-medium">System initialized</p>
              <p className="text-sm text-base-content/60">Just now</p>
            </div>
          </li>
        </ul>
        {offline && entries.length > 0 && <p className="text-xs text-base-content/60">{OFFLINE_HISTORY_NOTE}</p>}
      </div>
    </section>
  );
}
