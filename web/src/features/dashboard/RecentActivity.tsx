import { Link } from '@tanstack/react-router';
import { TimeAgo } from '../../ui/TimeAgo.tsx';
import { activityText, nameInEntry } from '../history/activity-text.ts';
import { groupChanges } from '../history/history-text.ts';
import { OFFLINE_HISTORY_NOTE } from '../history/RecordHistory.tsx';
import { useHistory } from '../history/use-history.ts';
import { useRecordNames } from '../history/use-record-names.ts';

/** How many of the ranch's latest changes the card shows. */
export const RECENT_SHOWN = 5;

/**
 * [T4] The ranch's latest changes, newest first, each with who made it and how long ago
 * (the server's time); [D8]'s static entry 'System initialized' / 'Just now' stays last.
 * 'View All' opens the whole activity ([T7]).
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
          <Link to="/activity" className="btn btn-ghost btn-sm">
            View All
          </Link>
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
