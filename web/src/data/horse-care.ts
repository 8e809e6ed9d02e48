import type { CareEntry } from '../../../shared/index.ts';
import type { HorseCareRow } from './horse-care-row.ts';
import type { InvalidEntities } from './invalid-entities.ts';
import { RecordGroups } from './record-groups.ts';

/**
 * The read model keeps a horse's care entries as ONE row (table `horseCare`), not a row per
 * entry: care is only ever read by horse (its timeline) or all at once (what is due), and a
 * ranch records several visits per horse a year, so a first sync writes a row per horse
 * instead of one per visit.
 */
export { flattenCare, type HorseCareRow } from './horse-care-row.ts';

/** The care entries of the document grouped by their horse (record-groups.ts). */
export const careGroups = (invalid?: InvalidEntities) =>
  new RecordGroups<HorseCareRow>('careEntries', (horseId, entries) => ({ horseId, entries: entries as unknown as CareEntry[] }), invalid);
