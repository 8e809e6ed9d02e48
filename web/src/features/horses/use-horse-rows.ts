import { useLiveQuery } from 'dexie-react-hooks';
import type { Horse, LookupItem } from '../../../../shared/index.ts';
import { useRanchData } from '../../data/context.tsx';
import type { Owner, RanchDb } from '../../data/db.ts';

export type HorseRow = Horse & {
  breedName: string | null;
  colorName: string | null;
  genderName: string | null;
  statusName: string | null;
  supplierName: string | null;
};

/** '' means "All …"; supplier RANCH means horses of the ranch itself (ownerId null). */
export type HorseFilters = { search: string; statusId: string; breedId: string; colorId: string; genderId: string; ownerId: string };
export const RANCH = 'ranch';
export const NO_FILTERS: HorseFilters = { search: '', statusId: '', breedId: '', colorId: '', genderId: '', ownerId: '' };

const byId = <T extends { id: string }>(items: T[]) => new Map(items.map((item) => [item.id, item]));
export const ownerName = (owner: Pick<Owner, 'firstName' | 'lastName'> | undefined) =>
  owner ? `${owner.firstName} ${owner.lastName}`.trim() : null;

type IndexedField = 'statusId' | 'breedId' | 'colorId' | 'genderId' | 'ownerId';

/**
 * Horses matching the filters, ordered by name. The first chosen filter uses its index
 * (`where(field).equals(id)`); the others and the name search filter those rows.
 */
async function loadHorses(db: RanchDb, filters: HorseFilters): Promise<Horse[]> {
  const fields: IndexedField[] = ['statusId', 'breedId', 'colorId', 'genderId', 'ownerId'];
  const chosen = fields.filter((field) => filters[field] !== '');
  // ownerId null (the ranch) is not indexed by IndexedDB, so it cannot lead.
  const lead = chosen.find((field) => !(field === 'ownerId' && filters.ownerId === RANCH));
  const needle = filters.search.trim().toLowerCase();
  const matches = (horse: Horse) =>
    chosen.every((field) =>
      field === 'ownerId' && filters.ownerId === RANCH ? horse.ownerId === null : horse[field] === filters[field],
    ) && (!needle || horse.name.toLowerCase().includes(needle));
  if (lead) {
    const horses = await db.horses.where(lead).equals(filters[lead]).filter(matches).toArray();
    return horses.sort((a, b) => a.name.localeCompare(b.name));
  }
  return chosen.length === 0 && !needle ? db.horses.orderBy('name').toArray() : db.horses.orderBy('name').filter(matches).toArray();
}

async function loadHorseRows(db: RanchDb, filters: HorseFilters): Promise<HorseRow[]> {
  const horses = await loadHorses(db, filters);
  const [breeds, colors, genders, statuses, owners] = await Promise.all([
    db.breeds.toArray(),
    db.colors.toArray(),
    db.genders.toArray(),
    db.statuses.toArray(),
    db.owners.bulkGet([...new Set(horses.map((horse) => horse.ownerId).filter((id): id is string => id !== null))]),
  ]);
  const names = (items: LookupItem[]) => {
    const map = byId(items);
    return (id: string | null) => (id ? (map.get(id)?.name ?? null) : null);
  };
  const breed = names(breeds);
  const color = names(colors);
  const gender = names(genders);
  const status = names(statuses);
  const ownersById = byId(owners.filter((owner): owner is Owner => owner !== undefined));
  return horses.map((horse) => ({
    ...horse,
    breedName: breed(horse.breedId),
    colorName: color(horse.colorId),
    genderName: gender(horse.genderId),
    statusName: status(horse.statusId),
    supplierName: horse.ownerId ? ownerName(ownersById.get(horse.ownerId)) : null,
  }));
}

/** undefined while the first query runs. */
export function useHorseRows(filters: HorseFilters): HorseRow[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(() => loadHorseRows(db, filters), [db, filters]);
}

export type LookupLists = Record<'breeds' | 'colors' | 'genders' | 'statuses', LookupItem[]>;

/**
 * Every lookup item by name, inactive ones included: the filters list them all (old horses
 * keep inactive values) and the form offers only active ones plus the horse's own value.
 */
export function useLookupLists(): LookupLists | undefined {
  const { db } = useRanchData();
  return useLiveQuery(async () => {
    const [breeds, colors, genders, statuses] = await Promise.all([
      db.breeds.orderBy('name').toArray(),
      db.colors.orderBy('name').toArray(),
      db.genders.orderBy('name').toArray(),
      db.statuses.orderBy('name').toArray(),
    ]);
    return { breeds, colors, genders, statuses };
  }, [db]);
}

export type SupplierOption = { id: string; name: string };

/** Suppliers by last name, for the horse form and the supplier filter. */
export function useSupplierOptions(): SupplierOption[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(
    async () => (await db.owners.orderBy('lastName').toArray()).map((owner) => ({ id: owner.id, name: ownerName(owner) ?? '' })),
    [db],
  );
}
