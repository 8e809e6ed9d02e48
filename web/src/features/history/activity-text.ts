import type { HistoryEntry } from './history-text.ts';
import { collectionNoun, fieldLabel } from './history-text.ts';
import { moneyText } from '../sales/sale-display.ts';
import { contactName } from '../contacts/contact-name.ts';

/** A record's name as the entry's own fields tell it (a deleted record's last name, a new one's first). */
export function nameInEntry(entry: HistoryEntry): string | undefined {
  const value = (field: string) => {
    const change = entry.changes.find((candidate) => candidate.field === field);
    const text = change && (change.after ?? change.before);
    return typeof text === 'string' && text ? text : undefined;
  };
  if (entry.collection === 'payments') {
    const amount = value('amount');
    return amount ? `of ${moneyText(amount)}` : undefined;
  }
  return value('name') ?? (contactName({ firstName: value('firstName'), lastName: value('lastName') }) || undefined);
}

/** An activity line in two parts: what was done ('Ada Rider changed Price of') and to which record ('horse Dusty'). */
export type ActivityParts = { done: string; record: string };

/**
 * [T4] One line of the Dashboard's Recent Activity: "Staff Tester changed Price of horse
 * Dusty", "Ada Rider added supplier Sam Hill", "… deleted breed Shire".
 */
export function activityText(entry: HistoryEntry, recordName: string | undefined): string {
  const { done, record } = activityParts(entry, recordName);
  return `${done} ${record}`;
}

/** [T7] `activityText` with the record apart, for the Activity screen to link it. */
export function activityParts(entry: HistoryEntry, recordName: string | undefined): ActivityParts {
  const record = [collectionNoun(entry.collection).toLowerCase(), recordName].filter(Boolean).join(' ');
  if (entry.kind === 'create') return { done: `${entry.who} added`, record };
  if (entry.kind === 'delete') return { done: `${entry.who} deleted`, record };
  const fields = [...new Set(entry.changes.map((change) => fieldLabel(entry.collection, change.field)))].join(', ');
  return { done: `${entry.who} changed ${fields} of`, record };
}
