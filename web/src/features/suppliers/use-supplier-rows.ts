import { useLiveQuery } from 'dexie-react-hooks';
import { fromCents, toCents } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import type { Owner, RanchDb } from '../../data/db.ts';

/**
 * A supplier with what it supplied, computed from the horses table (the seed always showed
 * 0 and $0): how many horses name it, and the sum of their listed prices.
 */
export type SupplierRow = Owner & { totalHorses: number; totalValue: string };

async function loadSupplierRows(db: RanchDb): Promise<SupplierRow[]> {
  const owners = await db.owners.orderBy('lastName').toArray();
  const horses =
    owners.length === 0
      ? []
      : await db.horses
          .where('ownerId')
          .anyOf(owners.map((owner) => owner.id))
          .toArray();
  const totals = new Map<string, { count: number; cents: number }>();
  for (const horse of horses) {
    if (!horse.ownerId) continue;
    const total = totals.get(horse.ownerId) ?? { count: 0, cents: 0 };
    total.count += 1;
    if (horse.priceUsd) {
      try {
        total.cents += toCents(horse.priceUsd);
      } catch {
        // A malformed price from an old client adds nothing rather than breaking the list.
      }
    }
    totals.set(horse.ownerId, total);
  }
  return owners.map((owner) => {
    const total = totals.get(owner.id);
    return { ...owner, totalHorses: total?.count ?? 0, totalValue: fromCents(total?.cents ?? 0) };
  });
}

/** Suppliers by last name; undefined while the first query runs. */
export function useSupplierRows(): SupplierRow[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(() => loadSupplierRows(db), [db]);
}
