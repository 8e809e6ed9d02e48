import type { Sql, Tx } from '../db/client.ts';

const MiB = 1024 * 1024;

/** [I7] What one user's uploads may take by default (RANCH_PHOTO_QUOTA_MIB): 1 GiB, about 1,000 phone photos. */
export const DEFAULT_PHOTO_QUOTA_BYTES = 1024 * MiB;

/** Advisory lock space of the quota check: one user's uploads are counted and stored one at a time. */
const QUOTA_LOCK = 7261003;

/** Bytes of the photos `userId` uploaded that are still stored. */
export async function photoBytesOf(sql: Sql | Tx, userId: string): Promise<number> {
  const [row] = await sql<{ used: string }[]>`select coalesce(sum(size), 0)::bigint::text as used from objects where owner_id = ${userId}`;
  return Number(row?.used ?? 0);
}

/**
 * Inside an upload's transaction: waits for the user's other uploads (on any instance) to
 * commit, then answers the bytes already stored, so two racing uploads cannot both slip
 * under the quota.
 */
export async function lockPhotoBytesOf(tx: Tx, userId: string): Promise<number> {
  await tx`select pg_advisory_xact_lock(${QUOTA_LOCK}, hashtext(${userId}))`;
  return photoBytesOf(tx, userId);
}

/** 1.5 MB, or 300 KB below 1000 KB (binary units, as the 10 MB photo limit). */
const inMiB = (bytes: number) => (bytes < 1000 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / MiB).toFixed(1)} MB`);

/** The 413's message ([I7]): how full the user's photo storage is, and how it frees up. */
export function quotaMessage(used: number, quota: number, size: number): string {
  return (
    `Photo storage full: your photos take ${inMiB(used)} of your ${inMiB(quota)}, and this one needs ${inMiB(size)}. ` +
    'Photos that no horse shows any more are removed 7 days later.'
  );
}

/**
 * [I7] Before an upload's body is read: the user's stored photos plus what their other
 * uploads in flight reserved (upload-admission.ts), those already stored counted once.
 */
export async function photoBytesWithReserved(sql: Sql, userId: string, reserved: { objectId: string; bytes: number }[]): Promise<number> {
  const used = await photoBytesOf(sql, userId);
  if (reserved.length === 0) return used;
  const stored = new Set(
    (await sql<{ id: string }[]>`select id from objects where id in ${sql(reserved.map(({ objectId }) => objectId))}`).map(({ id }) => id),
  );
  return used + reserved.reduce((sum, { objectId, bytes }) => sum + (stored.has(objectId) ? 0 : bytes), 0);
}
