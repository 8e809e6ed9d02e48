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

const byId = <T extends { id: string }>(items: T[]) => new Map(items.map((item) => [item.id, item]));
const ownerName = (owner: Owner | undefined) => (owner ? `${owner.firstName} ${owner.lastName}`.trim() : null);

/** Horses ordered by name (the name index), those matching `search` case-insensitively. */
async function loadHorseRows(db: RanchDb, search: string): Promise<HorseRow[]> {
  const needle = search.trim().toLowerCase();
  const horses = await (needle
    ? db.horses.orderBy('name').filter((horse) => horse.name.toLowerCase().includes(needle)).toArray()
    : db.horses.orderBy('name').toArray());
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
export function useHorseRows(search: string): HorseRow[] | undefined {
  const { db } = useRanchData();
  return useLiveQuery(() => loadHorseRows(db, search), [db, search]);
}

export type LookupLists = Record<'breeds' | 'colors' | 'genders' | 'statuses', LookupItem[]>;

/** Choices for the horse form: active items by name. */
export function useLookupLists(): LookupLists | undefined {
  const { db } = useRanchData();
  return useLiveQuery(async () => {
    const active = (items: LookupItem[]) => items.filter((item) => item.isActive !== false);
    const [breeds, colors, genders, statuses] = await Promise.all([
      db.breeds.orderBy('name').toArray(),
      db.colors.orderBy('name').toArray(),
      db.genders.orderBy('name').toArray(),
      db.statuses.orderBy('name').toArray(),
    ]);
    return { breeds: active(breeds), colors: active(colors), genders: active(genders), statuses: active(statuses) };
  }, [db]);
}
