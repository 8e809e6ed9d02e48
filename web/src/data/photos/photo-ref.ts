/**
 * A horse whose photo is still in a device's outbox has `photoUrl` = `outbox:<id>`. The
 * device that took it shows the stored bytes; every other device shows "photo on its way"
 * until the upload completes and the horse points at the server's object path.
 */
export const OUTBOX_PREFIX = 'outbox:';

export function outboxRef(id: string): string {
  return `${OUTBOX_PREFIX}${id}`;
}

/** The outbox id a photoUrl refers to, or null for a server path (or no photo). */
export function outboxIdOf(photoUrl: string | null | undefined): string | null {
  return photoUrl?.startsWith(OUTBOX_PREFIX) ? photoUrl.slice(OUTBOX_PREFIX.length) || null : null;
}
