import type { Sql, Tx } from '../db/client.ts';

/** Stored photo objects: immutable bytes with their detected type and SHA-256. */
export type ObjectMeta = { id: string; ownerId: string; contentType: string; size: number; sha256: string };

export function objectPath(id: string): string {
  return `/api/objects/${id}`;
}

export async function findObjectMeta(sql: Sql | Tx, id: string): Promise<ObjectMeta | undefined> {
  const [row] = await sql<ObjectMeta[]>`
    select id, owner_id as "ownerId", content_type as "contentType", size, sha256
    from objects where id = ${id}`;
  return row;
}

export async function readObjectBytes(sql: Sql, id: string): Promise<Uint8Array | undefined> {
  const [row] = await sql<{ bytes: Uint8Array }[]>`select bytes from objects where id = ${id}`;
  return row?.bytes;
}
