import { COLLECTION_NOUN, type Collection } from '../../../../shared/index.ts';
import type { RanchNotice } from '../../data/compensation-notices.ts';
import { fieldLabel } from './notice-fields.ts';
import { recordName, valueText, type NameSource } from './notice-values.ts';

const capitalize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** One of the server's reasons ('priceUsd: Must be an amount in dollars') in the screen's words ('Price must be an amount in dollars'). */
function reasonPart(collection: Collection, part: string): string {
  const match = /^(\w+): (.+)$/.exec(part);
  const label = match && fieldLabel(collection, match[1]!);
  if (!match || !label) return capitalize(part);
  const message = match[2]!;
  const noSuch = /^no such entity in (\w+)$/.exec(message);
  if (noSuch) return `The ${label.toLowerCase()} it names no longer exists`;
  if (message === 'not a value this field can hold') return `${label} held something that is not a value`;
  // Schema messages mostly name the field already ('Breed is required', 'Down payment cannot exceed …').
  if (message.toLowerCase().startsWith(label.split(' ')[0]!.toLowerCase())) return message;
  if (/^must\b/i.test(message)) return `${label} ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  return `${label}: ${message}`;
}

/** The server's reason, parts joined by '; ', in the screen's words. */
export function reasonText(collection: Collection, reason: string): string {
  const parts = reason.split('; ').filter((part) => part.trim() !== '');
  return parts.length === 0 ? 'It broke a rule of the ranch data' : parts.map((part) => reasonPart(collection, part)).join('; ');
}

/** What was put back: 'Price was put back to $8,000, Down Payment to $1,000'. */
async function revertedText(source: NameSource, notice: RanchNotice): Promise<string> {
  const parts: string[] = [];
  for (const [field, value] of Object.entries(notice.fields)) {
    const label = fieldLabel(notice.collection, field) ?? field;
    const shown = await valueText(source, notice.collection, field, value);
    parts.push(parts.length === 0 ? `${label} was put back to ${shown}` : `${label} to ${shown}`);
  }
  const dropped = (notice.dropped ?? []).map((field) => fieldLabel(notice.collection, field));
  const labelled = dropped.filter((label): label is string => label !== undefined);
  if (labelled.length > 0) parts.push(`${labelled.join(', ')} removed`);
  if (labelled.length < dropped.length) parts.push('fields it may not have removed');
  return parts.length > 0 ? parts.join(', ') : 'your change was put back';
}

/**
 * One notice as a sentence: which record, which fields, what they are now, and why, e.g.
 * "Thunder: Price was put back to $8,000 — A sale cannot be changed once recorded".
 */
export async function describeNotice(source: NameSource, notice: RanchNotice): Promise<string> {
  const { collection, id, action } = notice;
  const noun = COLLECTION_NOUN[collection];
  const why = reasonText(collection, notice.reason);
  try {
    const name = await recordName(source, collection, id, notice.fields);
    // [P13] Kept: the reason is the rules it broke, in words already.
    if (action === 'flagged') return `${name ?? capitalize(`a ${noun}`)} was recorded — ${notice.reason}`;
    // [S19] The server refused an entry this device recorded: it counts nowhere.
    if (action === 'refused') return `${name ?? `A new ${noun}`} was not recorded — ${why}`;
    if (action === 'removed') {
      const what = !name ? `A new ${noun}` : collection === 'sales' || collection === 'payments' ? name : `New ${noun} '${name}'`;
      return `${what} was not kept — ${why}`;
    }
    if (action === 'restored') return `${name ?? `A deleted ${noun}`} was brought back — ${why}`;
    return `${name ?? capitalize(`a ${noun}`)}: ${await revertedText(source, notice)} — ${why}`;
  } catch {
    // The read model could not be read (closed while signing out): the reason alone still helps.
    return `A ${noun}: your change was not kept — ${why}`;
  }
}

/** Names of the records in a batch for a toast: 'Thunder, Comet and 2 more'. */
export function namesSummary(names: string[]): string {
  const unique = [...new Set(names)];
  if (unique.length <= 2) return unique.join(' and ');
  return `${unique.slice(0, 2).join(', ')} and ${unique.length - 2} more`;
}

/** The toast of one batch: its title and text (several notices are summarised; the bell lists each). */
export async function batchToast(source: NameSource, notices: RanchNotice[]): Promise<{ title: string; description: string }> {
  const flagged = notices.every((notice) => notice.action === 'flagged');
  if (notices.length === 1) {
    return { title: flagged ? 'Recorded with a note' : 'Change not kept', description: await describeNotice(source, notices[0]!) };
  }
  const names = await Promise.all(
    notices.map(
      async (notice) =>
        (await recordName(source, notice.collection, notice.id, notice.fields).catch(() => undefined)) ??
        `a ${COLLECTION_NOUN[notice.collection]}`,
    ),
  );
  if (flagged) {
    return {
      title: `${notices.length} records with notes`,
      description: `${namesSummary(names)} were recorded with notes. The bell lists each one.`,
    };
  }
  return {
    title: `${notices.length} changes not kept`,
    description: `The server put back changes to ${namesSummary(names)}. The bell lists each one and why.`,
  };
}
