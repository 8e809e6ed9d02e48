import type { RanchDb } from './db.ts';

/**
 * Whose ranch data this device holds ([A12]): the user the data layer last synced for,
 * kept in the read model's `meta` table so it goes with the data when the device is
 * cleared. The document's unsent changes were made in that user's name; they must never
 * be sent under another user's session.
 */
export const OWNER_KEY = 'device.owner';

export type DataOwner = { userId: string; name: string };

/** Changes made on this device that the server has not acknowledged. */
export type Unsent = { records: number; photos: number };

/**
 * What `connect(owner)` did:
 * - `syncing`: the data is this user's (or nobody's yet): the socket opens and photos go;
 * - `held`: another user's changes are still unsent: nothing is sent, they are kept;
 * - `other-owner`: another user's data with nothing unsent: nothing is sent, the page clears it.
 */
export type ConnectOutcome =
  | { kind: 'syncing' }
  | { kind: 'held'; owner: DataOwner; unsent: Unsent }
  | { kind: 'other-owner'; owner: DataOwner };

export async function readOwner(db: Pick<RanchDb, 'meta'>): Promise<DataOwner | null> {
  const row = await db.meta.get(OWNER_KEY);
  return isOwner(row?.value) ? row.value : null;
}

/**
 * Decides whether `user` may sync the data on this device. Data of nobody yet (a new
 * device, or one from before owners were recorded) becomes the user's. `countUnsent` is
 * asked only when the data is another user's.
 */
export async function claimData(db: Pick<RanchDb, 'meta'>, user: DataOwner, countUnsent: () => Promise<Unsent>): Promise<ConnectOutcome> {
  const owner = await readOwner(db);
  if (owner === null || owner.userId === user.userId) {
    if (owner?.name !== user.name) await db.meta.put({ key: OWNER_KEY, value: { userId: user.userId, name: user.name } });
    return { kind: 'syncing' };
  }
  const unsent = await countUnsent();
  return unsent.records + unsent.photos > 0 ? { kind: 'held', owner, unsent } : { kind: 'other-owner', owner };
}

function isOwner(value: unknown): value is DataOwner {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as DataOwner).userId === 'string' &&
    typeof (value as DataOwner).name === 'string'
  );
}
