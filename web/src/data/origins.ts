/**
 * Transaction origins for changes made on this device. Yjs passes the origin to every
 * observer, so code can tell its own writes from those applied by the sync provider or
 * by y-indexeddb (whose origins are the provider and persistence objects themselves).
 */
export const LOCAL_ORIGIN = { kind: 'local' } as const;
export type LocalOrigin = typeof LOCAL_ORIGIN;

export function isLocalOrigin(origin: unknown): origin is LocalOrigin {
  return origin === LOCAL_ORIGIN;
}
