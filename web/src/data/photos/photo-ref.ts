import { OUTBOX_PREFIX } from '../../../../shared/index.ts';

export { OUTBOX_PREFIX };

export function outboxRef(id: string): string {
  return `${OUTBOX_PREFIX}${id}`;
}

/** The outbox id a photoUrl refers to, or null for a server path (or no photo). */
export function outboxIdOf(photoUrl: string | null | undefined): string | null {
  return photoUrl?.startsWith(OUTBOX_PREFIX) ? photoUrl.slice(OUTBOX_PREFIX.length) || null : null;
}
