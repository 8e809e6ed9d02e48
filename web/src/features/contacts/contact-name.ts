/** The name fields of a supplier or buyer; `unknown` so fields read from the document need no cast. */
export type NamedContact = { firstName?: unknown; lastName?: unknown };

/**
 * A supplier's or buyer's name as every screen, export and notice shows it: first and last
 * name, trimmed ('' when neither is set). The one place this is spelled out.
 */
export function contactName(contact: NamedContact): string {
  return [contact.firstName, contact.lastName]
    .filter((part): part is string => typeof part === 'string')
    .join(' ')
    .trim();
}
