import type { Horse } from '../../../shared/index.ts';
import type { RanchDb } from './db.ts';

/**
 * The name search index (`horseSearch`, written by the projection next to `horses`): every
 * suffix of the lower-cased name, cut to this many characters. "Matches anywhere in the
 * name" (as `GET /api/horses?search=` does) is then a prefix query on one multi-entry
 * index: a needle occurs in the name exactly when it starts one of its suffixes.
 */
export const SEARCH_KEY_LENGTH = 12;

export type HorseSearchRow = { id: string; keys: string[] };

export const normaliseNeedle = (search: string) => search.trim().toLowerCase();

export function nameSearchKeys(name: string): string[] {
  const lower = name.toLowerCase();
  const keys = new Set<string>();
  for (let i = 0; i < lower.length; i++) {
    // A trimmed needle never starts with white space.
    if (!/\s/.test(lower[i]!)) keys.add(lower.slice(i, i + SEARCH_KEY_LENGTH));
  }
  return [...keys];
}

export const horseSearchRow = (horse: Pick<Horse, 'id' | 'name'>): HorseSearchRow => ({ id: horse.id, keys: nameSearchKeys(horse.name ?? '') });

/**
 * Ids of the horses whose name contains `needle` (already normalised), from the index
 * alone: keys only, no rows read. Needles longer than the key length are checked against
 * the name by the caller.
 */
export async function searchHorseIds(db: RanchDb, needle: string): Promise<Set<string>> {
  return new Set(await db.horseSearch.where('keys').startsWith(needle.slice(0, SEARCH_KEY_LENGTH)).primaryKeys());
}
