import type * as Y from 'yjs';
import type { Tx } from '../db/client.ts';
import { getEntity, horseInput, lookupInput, type Collection, type EntityChanges } from '../../../shared/index.ts';

type Row = Record<string, string | number | boolean | null>;

type Projector = {
  table: string;
  columns: readonly string[];
  /** The relational row, or null when the entity does not pass the shared schema. */
  toRow(id: string, fields: Record<string, unknown>): Row | null;
};

const lookup: Omit<Projector, 'table'> = {
  columns: ['id', 'name', 'is_active'],
  toRow(id, fields) {
    const parsed = lookupInput.safeParse(fields);
    return parsed.success ? { id, name: parsed.data.name, is_active: parsed.data.isActive } : null;
  },
};

/** Relational projection of the document (DESIGN.md "Postgres"); REST reads are SQL over it. */
const PROJECTORS: Partial<Record<Collection, Projector>> = {
  horses: {
    table: 'horses',
    columns: ['id', 'name', 'breed_id', 'color_id', 'gender_id', 'status_id', 'owner_id', 'birthdate', 'age_years', 'price_usd', 'photo_url', 'notes'],
    toRow(id, fields) {
      const parsed = horseInput.safeParse(fields);
      if (!parsed.success) return null;
      const horse = parsed.data;
      return {
        id,
        name: horse.name,
        breed_id: horse.breedId,
        color_id: horse.colorId,
        gender_id: horse.genderId,
        status_id: horse.statusId,
        owner_id: horse.ownerId,
        birthdate: horse.birthdate,
        age_years: horse.ageYears,
        price_usd: horse.priceUsd,
        photo_url: horse.photoUrl,
        notes: horse.notes,
      };
    },
  },
  breeds: { table: 'breeds', ...lookup },
  colors: { table: 'colors', ...lookup },
  genders: { table: 'genders', ...lookup },
  statuses: { table: 'statuses', ...lookup },
};

/**
 * Writes the projection rows of the changed entities inside the caller's transaction,
 * in bulk per table. Entities that fail validation are left out of the projection.
 */
export async function projectChanges(tx: Tx, doc: Y.Doc, changes: EntityChanges): Promise<void> {
  for (const [collection, ids] of changes) {
    const projector = PROJECTORS[collection];
    if (!projector) continue;
    const upserts: Row[] = [];
    const removals: string[] = [];
    for (const id of ids) {
      const fields = getEntity(doc, collection, id);
      const row = fields ? projector.toRow(id, fields) : null;
      if (row) upserts.push(row);
      else removals.push(id);
    }
    const { table, columns } = projector;
    if (upserts.length > 0) {
      const assignments = columns
        .filter((column) => column !== 'id')
        .map((column) => `${column} = excluded.${column}`)
        .join(', ');
      await tx`insert into ${tx(table)} ${tx(upserts, ...columns)}
               on conflict (id) do update set ${tx.unsafe(assignments)}`;
    }
    const uuids = removals.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
    if (uuids.length > 0) await tx`delete from ${tx(table)} where id in ${tx(uuids)}`;
  }
}
