import type { Horse, LookupItem } from '../../../../shared/index.ts';
import type { RanchDb } from '../../data/db.ts';
import { contactName } from '../contacts/contact-name.ts';

/**
 * The names a horse's references stand for: every lookup item's and every supplier's. The
 * horse list keeps its horses as read and names only what it shows, as it shows it (the rows
 * in view, HorseTable), or what it hands over (the details, Export): naming every horse as
 * it is read makes megabytes of a start's garbage and keeps a property store per horse.
 */
export type HorseNames = { lookup: ReadonlyMap<string, string>; owners: ReadonlyMap<string, string> };

/** A horse with its names: what the details and Export show. */
export type HorseRow = Horse & {
  breedName: string | null;
  colorName: string | null;
  genderName: string | null;
  statusName: string | null;
  supplierName: string | null;
};

/** Names of every lookup item and supplier: small tables, read once per change. */
export async function loadHorseNames(db: RanchDb): Promise<HorseNames> {
  const [breeds, colors, genders, statuses, owners] = await Promise.all([
    db.breeds.toArray(),
    db.colors.toArray(),
    db.genders.toArray(),
    db.statuses.toArray(),
    db.owners.toArray(),
  ]);
  // Lookup ids are UUIDs, unique across the four lists.
  const lookup = new Map([...breeds, ...colors, ...genders, ...statuses].map((item: LookupItem) => [item.id, item.name]));
  return { lookup, owners: new Map(owners.map((owner) => [owner.id, contactName(owner)])) };
}

/** The name of a lookup item the horse refers to; null for none, or for one that is gone. */
export function lookupName(names: HorseNames, id: string | null): string | null {
  return id ? (names.lookup.get(id) ?? null) : null;
}

/** The name of the horse's supplier; null for the ranch's own horse, or for a supplier that is gone. */
export function supplierName(names: HorseNames, ownerId: string | null): string | null {
  return ownerId ? (names.owners.get(ownerId) ?? null) : null;
}

/** A new row: the horse's own fields (TypeScript holds the copy to Horse's), then its names. */
export function withNames(horse: Horse, names: HorseNames): HorseRow {
  const { id, name, breedId, colorId, genderId, statusId, ownerId, birthdate, ageYears, priceUsd, photoUrl, notes } = horse;
  return {
    id,
    name,
    breedId,
    colorId,
    genderId,
    statusId,
    ownerId,
    birthdate,
    ageYears,
    priceUsd,
    photoUrl,
    notes,
    breedName: lookupName(names, breedId),
    colorName: lookupName(names, colorId),
    genderName: lookupName(names, genderId),
    statusName: lookupName(names, statusId),
    supplierName: supplierName(names, ownerId),
  };
}

/** One horse with its names (the bell opens a horse's details, [K4]); undefined when it is gone. */
export async function loadHorseRow(db: RanchDb, id: string): Promise<HorseRow | undefined> {
  const horse = await db.horses.get(id);
  return horse && withNames(horse, await loadHorseNames(db));
}
