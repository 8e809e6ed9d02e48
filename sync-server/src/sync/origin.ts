/**
 * Where a change to the server's document came from. Broadcasting and acknowledgement
 * switch on it: a device's own update is not echoed back to it.
 */
export type ChangeOrigin =
  | { kind: 'connection'; connectionId: number; userId: string }
  | { kind: 'rest'; userId: string }
  | { kind: 'load' };

export function isChangeOrigin(value: unknown): value is ChangeOrigin {
  return typeof value === 'object' && value !== null && 'kind' in value;
}

export function originUserId(origin: ChangeOrigin): string | null {
  return origin.kind === 'load' ? null : origin.userId;
}
