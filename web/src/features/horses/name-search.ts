/**
 * The horse name search, answered in memory from the rows the list has already read, so a
 * keystroke costs no IndexedDB round trip: a horse matches when the trimmed, lower-cased
 * search occurs anywhere in its lower-cased name (as `GET /api/horses?search=` does).
 */
export const normaliseNeedle = (search: string) => search.trim().toLowerCase();

/** A name as the search compares it. */
export const searchedName = (name: string | null) => (name ?? '').toLowerCase();

export type NameIndex<Row> = {
  /** The rows whose name contains `needle` (normalised), in the rows' order; all for ''. */
  search(needle: string): Row[];
  /** Computes the lower-cased names now (an idle moment), so the first keystroke does not. */
  warm(): void;
};

/** The horse list's index: a horse is searched by its name. */
export function createNameIndex<Row extends { name: string | null }>(rows: Row[]): NameIndex<Row> {
  return createTextIndex(rows, (row) => row.name);
}

/**
 * The lower-cased texts (`textOf`: a name, or the fields a list searches, [B6]) are computed
 * once per list (on `warm` or the first search) and kept in an array beside the rows; a
 * search is then one `includes` per text. A needle that extends the previous one (typing on)
 * can only narrow its result, so only that result is scanned.
 */
export function createTextIndex<Row>(rows: Row[], textOf: (row: Row) => string | null): NameIndex<Row> {
  let lower: string[] | null = null;
  let last: { needle: string; positions: number[] } | null = null;
  const lowerNames = () => (lower ??= rows.map((row) => searchedName(textOf(row))));
  return {
    warm() {
      lowerNames();
    },
    search(needle) {
      if (!needle) return rows;
      const names = lowerNames();
      const candidates = last && needle.includes(last.needle) ? last.positions : null;
      const positions: number[] = [];
      if (candidates) {
        for (const i of candidates) if (names[i]!.includes(needle)) positions.push(i);
      } else {
        for (let i = 0; i < names.length; i++) if (names[i]!.includes(needle)) positions.push(i);
      }
      last = { needle, positions };
      return positions.map((i) => rows[i]!);
    },
  };
}
