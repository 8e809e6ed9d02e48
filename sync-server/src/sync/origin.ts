/**
 * Where a change to the server's document came from. Broadcasting and acknowledgement
 * switch on it: a device's own update is not echoed back to it.
 */
export type ChangeOrigin =
  | { kind: 'connection'; connectionId: number; userId: string }
  | { kind: 'rest'; userId: string }
  /** The server's own answer to an invalid change (a compensating update). */
  | { kind: 'validation' }
  | { kind: 'load' }
  /** Updates another server instance logged, read from Postgres. */
  | { kind: 'peer' };

export function originUserId(origin: ChangeOrigin): string | null {
  return origin.kind === 'connection' || origin.kind === 'rest' ? origin.userId : null;
}
