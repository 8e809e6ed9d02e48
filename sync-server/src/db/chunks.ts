/** The Postgres protocol carries at most 65535 parameters per statement: bulk writes go in chunks. */
export const MAX_PARAMETERS = 60_000;

export function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
