import type { Conflict } from '../../shared/index.ts';

/** Two people whose edits meet in the conflicts the tests serve. */
export const ALICE = { userId: 'u-alice', userName: 'Alice Smith' };
export const BOB = { userId: 'u-bob', userName: 'Bob Jones' };

/** An open conflict on horse `horseId`'s price: Bob's $9,200 kept over Alice's $9,500; `patch` changes any of it. */
export function priceConflictOn(horseId: string, patch: Partial<Conflict> = {}): Conflict {
  return {
    id: '7',
    collection: 'horses',
    entityId: horseId,
    field: 'priceUsd',
    kept: { value: '9200.00', ...BOB, serverTime: '2026-03-01T10:00:05.000Z' },
    other: { value: '9500.00', ...ALICE, serverTime: '2026-03-01T10:00:01.000Z' },
    money: true,
    detectedAt: '2026-03-01T10:00:05.000Z',
    ...patch,
  };
}
