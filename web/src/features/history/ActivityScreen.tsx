import { useId, useState } from 'react';
import { COLLECTIONS, type Collection } from '../../../../shared/index.ts';
import { TimeAgo } from '../../ui/TimeAgo.tsx';
import { activityText, nameInEntry } from './activity-text.ts';
import { collectionNoun, entryLines, groupChanges, type HistoryEntry } from './history-text.ts';
import { OFFLINE_HISTORY_NOTE } from './RecordHistory.tsx';
import { useHistoryPages } from './use-history-pages.ts';
import { useReferenceNames } from './use-history.ts';
import { useRecordNames } from './use-record-names.ts';

/** Changes fetched per page (the API's most). */
export const ACTIVITY_PAGE = 200;

const pagePath = (before?: string) => `recent?limit=${ACTIVITY_PAGE}${before ? `&before=${before}` : ''}`;

/** Who made an entry: the account's id, or the name shown when the account is gone. */
const personOf = (entry: HistoryEntry) => entry.changes[0]?.userId ?? `name:${entry.who}`;

/**
 * [T7] The ranch's activity ('View All' on the Dashboard): every change, newest first, with
 * who made it and what changed, filtered by kind of record, record name and person over the
 * changes loaded; older pages on request. Offline: what the device last fetched, said so.
 */
export function ActivityScreen() {
  const [pages, setPages] = useState<string[]>([pagePath()]);
  const { changes, offline, lastPageSize } = useHistoryPages(pages);
  const [kind, setKind] = useState<Collection | ''>('');
  const [person, setPerson] = useState('');
  const [search, setSearch] = useState('');
  const ids = { kind: useId(), person: useId(), search: useId() };
  const all = groupChanges(changes ?? []);
  const recordNames = useRecordNames(all);
  const referenceNames = useReferenceNames(changes);
  const nameOf = (entry: HistoryEntry) => recordNames.get(entry.entityId) ?? nameInEntry(entry);
  const people = [...new Map(all.map((entry) => [personOf(entry), entry.who])).entries()].sort((a, b) => a[1].localeCompare(b[1]));
  const kinds = COLLECTIONS.filter((collection) => all.some((entry) => entry.collection === collection));
  const wanted = search.trim().toLowerCase();
  const shown = all.filter(
    (entry) =>
      (!kind || entry.collection === kind) &&
      (!person || personOf(entry) === person) &&
      (!wanted || (nameOf(entry) ?? '').toLowerCase().includes(wanted)),
  );
  const now = Date.now();
  const lastChange = changes?.at(-1);

  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-3xl font-bold max-md:sr-only">Activity</h1>
        <p className="text-base-content/70 max-md:hidden">Every change made at the ranch, newest first, and who made it</p>
      </div>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body gap-4">
          <div className="grid gap-3 sm:grid-cols-3">
            <label className="flex flex-col gap-1" htmlFor={ids.kind}>
              <span className="text-sm font-medium">Record</span>
              <select
                id={ids.kind}
                className="select w-full"
                value={kind}
                onChange={(event) => setKind(event.target.value as Collection | '')}
              >
                <option value="">All records</option>
                {kinds.map((collection) => (
                  <option key={collection} value={collection}>
                    {collectionNoun(collection)}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1" htmlFor={ids.search}>
              <span className="text-sm font-medium">Name</span>
              <input
                id={ids.search}
                type="search"
                className="input w-full"
                placeholder="e.g. Dusty"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </label>
            <label className="flex flex-col gap-1" htmlFor={ids.person}>
              <span className="text-sm font-medium">Person</span>
              <select id={ids.person} className="select w-full" value={person} onChange={(event) => setPerson(event.target.value)}>
                <option value="">Everyone</option>
                {people.map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {offline && <p className="text-sm text-base-content/70">{OFFLINE_HISTORY_NOTE}</p>}
          {changes === undefined ? (
            <span className="loading loading-spinner" role="status" aria-label="Loading" />
          ) : shown.length === 0 ? (
            <p className="py-6 text-center text-base-content/70">
              {all.length === 0 ? 'No changes recorded yet' : 'No changes match these filters'}
            </p>
          ) : (
            <ul aria-label="Changes" className="divide-y divide-base-200">
              {shown.map((entry) => (
                <li key={entry.key} className="py-3">
                  <p className="font-medium">{activityText(entry, nameOf(entry))}</p>
                  {entry.kind === 'update' && (
                    <ul className="text-sm text-base-content/80">
                      {entryLines(entry, referenceNames, entry.collection).map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                    </ul>
                  )}
                  <p className="text-sm text-base-content/60">
                    <TimeAgo at={Date.parse(entry.serverTime)} now={now} />
                  </p>
                </li>
              ))}
            </ul>
          )}
          {lastPageSize >= ACTIVITY_PAGE && lastChange && (
            <button
              type="button"
              className="btn btn-ghost self-center"
              onClick={() => setPages((was) => [...was, pagePath(lastChange.id)])}
            >
              Load older changes
            </button>
          )}
          {changes !== undefined && all.length > 0 && (
            <p className="text-xs text-base-content/60">
              Filters look through the {all.length} changes loaded
              {lastPageSize >= ACTIVITY_PAGE ? '; load older ones to look further back' : ''}.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
