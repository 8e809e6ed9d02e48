import { Link, type LinkProps } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { COLLECTIONS, type Collection } from '../../../../shared/index.ts';
import type { Column } from '../../ui/DataTable.tsx';
import { ListControls } from '../../ui/ListControls.tsx';
import { DATE_ORDER, type ListSort } from '../../ui/list-sort.ts';
import { recordHref } from '../../ui/record-link.tsx';
import { TimeAgo } from '../../ui/TimeAgo.tsx';
import { useListView } from '../../ui/use-list-view.ts';
import { activityParts, nameInEntry } from './activity-text.ts';
import { collectionNoun, entryLines, groupChanges, type HistoryEntry, type ReferenceNames } from './history-text.ts';
import { OFFLINE_HISTORY_NOTE } from './RecordHistory.tsx';
import { useHistoryPages } from './use-history-pages.ts';
import { useReferenceNames } from './use-history.ts';
import { type RecordsHere, useRecordsHere } from './use-record-names.ts';

/** Changes fetched per page (the API's most). */
export const ACTIVITY_PAGE = 200;

const pagePath = (before?: string) => `recent?limit=${ACTIVITY_PAGE}${before ? `&before=${before}` : ''}`;

/** An entry and its place among those loaded, counted from the oldest (the server's order, [T5]). */
type ActivityRow = HistoryEntry & { order: number };

/** [T7] The order: the server's, newest first unless chosen otherwise. */
const ACTIVITY_COLUMNS: Column<ActivityRow>[] = [{ header: 'Date', key: 'order', sortValue: (row) => row.order, sortNames: DATE_ORDER }];
const NEWEST_FIRST: ListSort = { key: 'order', direction: 'desc' };

/** Each record's name as the loaded entries tell it, the newest first: a deleted record's last name. */
function namesInEntries(entries: readonly HistoryEntry[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const entry of entries) {
    if (names.has(entry.entityId)) continue;
    const name = nameInEntry(entry);
    if (name) names.set(entry.entityId, name);
  }
  return names;
}

/** Who made an entry: the account's id, or the name shown when the account is gone. */
const personOf = (entry: HistoryEntry) => entry.changes[0]?.userId ?? `name:${entry.who}`;

/**
 * [T7] The ranch's activity ('View All' on the Dashboard): every change, newest first (or
 * oldest), with who made it and what changed, searched by record name and filtered by kind
 * of record and person over the changes loaded, and counted; each record the device holds
 * links to its details. Older pages on request. Offline: what the device last fetched, said so.
 */
export function ActivityScreen() {
  const [pages, setPages] = useState<string[]>([pagePath()]);
  const { changes, offline, lastPageSize } = useHistoryPages(pages);
  const [kind, setKind] = useState<Collection | ''>('');
  const [person, setPerson] = useState('');
  const all = useMemo(
    () => changes && groupChanges(changes).map((entry, index, entries): ActivityRow => ({ ...entry, order: entries.length - index })),
    [changes],
  );
  const records = useRecordsHere(all ?? []);
  const loadedNames = useMemo(() => namesInEntries(all ?? []), [all]);
  const referenceNames = useReferenceNames(changes);
  const nameOf = useCallback(
    (entry: HistoryEntry) => records.get(entry.entityId) || loadedNames.get(entry.entityId),
    [records, loadedNames],
  );
  const filtered = useMemo(
    () => all?.filter((entry) => (!kind || entry.collection === kind) && (!person || personOf(entry) === person)),
    [all, kind, person],
  );
  const view = useListView(
    filtered,
    ACTIVITY_COLUMNS,
    useCallback((entry: ActivityRow) => nameOf(entry) ?? '', [nameOf]),
    NEWEST_FIRST,
  );
  const people = [...new Map((all ?? []).map((entry) => [personOf(entry), entry.who])).entries()].sort((a, b) => a[1].localeCompare(b[1]));
  const kinds = COLLECTIONS.filter((collection) => all?.some((entry) => entry.collection === collection));
  const more = lastPageSize >= ACTIVITY_PAGE;
  const lastChange = changes?.at(-1);

  return (
    <section className="space-y-4">
      <div>
        <h1 className="text-3xl font-bold max-md:sr-only">Activity</h1>
        <p className="text-base-content/70 max-md:hidden">Every change made at the ranch, newest first, and who made it</p>
      </div>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body gap-3 max-md:p-4">
          <ListControls
            noun="changes"
            one="change"
            searchHint="record name"
            view={{ ...view, total: all?.length }}
            columns={ACTIVITY_COLUMNS}
            noHeaders
          >
            {/* On a phone the two filters share a line below the search. */}
            <div className="flex w-full gap-2 sm:w-auto">
              <select
                aria-label="Record"
                className="select min-w-0 flex-1 sm:w-44 sm:flex-none"
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
              <select
                aria-label="Person"
                className="select min-w-0 flex-1 sm:w-44 sm:flex-none"
                value={person}
                onChange={(event) => setPerson(event.target.value)}
              >
                <option value="">Everyone</option>
                {people.map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
          </ListControls>
          {more && (
            <p className="text-xs text-base-content/60">
              The search, filters and order look through the {all?.length.toLocaleString()} changes loaded; load older ones at the end to
              look further back.
            </p>
          )}
          {offline && <p className="text-sm text-base-content/70">{OFFLINE_HISTORY_NOTE}</p>}
          {view.shown === undefined ? (
            <span className="loading loading-spinner" role="status" aria-label="Loading" />
          ) : view.shown.length === 0 ? (
            <p className="py-6 text-center text-base-content/70">
              {all?.length === 0 ? 'No changes recorded yet' : 'No changes match these filters'}
            </p>
          ) : (
            <ChangeList entries={view.shown} records={records} nameOf={nameOf} referenceNames={referenceNames} />
          )}
          {more && lastChange && (
            <button
              type="button"
              className="btn btn-ghost self-center"
              onClick={() => setPages((was) => [...was, pagePath(lastChange.id)])}
            >
              Load older changes
            </button>
          )}
        </div>
      </div>
    </section>
  );
}

function ChangeList({
  entries,
  records,
  nameOf,
  referenceNames,
}: {
  entries: HistoryEntry[];
  records: RecordsHere;
  nameOf: (entry: HistoryEntry) => string | undefined;
  referenceNames: ReferenceNames;
}) {
  const now = Date.now();
  return (
    <ul aria-label="Changes" className="divide-y divide-base-200">
      {entries.map((entry) => (
        <li key={entry.key} className="py-3">
          <p className="font-medium">
            <EntryTitle entry={entry} name={nameOf(entry)} here={records.has(entry.entityId)} />
          </p>
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
  );
}

/** '<who> changed Price of <horse Dusty>': the record links to its details while this device holds it; a deleted one is plain text. */
function EntryTitle({ entry, name, here }: { entry: HistoryEntry; name: string | undefined; here: boolean }) {
  const { done, record } = activityParts(entry, name);
  const href = here ? recordHref(entry.collection, entry.entityId) : undefined;
  if (!href) return `${done} ${record}`;
  return (
    <>
      {done} {/* Underlined in the text; its padding makes a thumb's target of the line. */}
      <Link to={href as LinkProps['to']} className="link link-primary py-3">
        {record}
      </Link>
    </>
  );
}
