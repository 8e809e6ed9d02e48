import { newId } from '../../../../shared/index.ts';
import type { RanchDb } from '../db.ts';

/**
 * One photo taken on this device, waiting to reach the server. The bytes are kept as an
 * ArrayBuffer rather than a Blob: every browser stores ArrayBuffers in IndexedDB (Safari
 * long refused Blobs in some modes).
 */
export type OutboxPhoto = {
  id: string;
  bytes: ArrayBuffer;
  type: string;
  /** Size of the file picked, before compression (for the record). */
  originalSize: number;
  createdAt: number;
  /**
   * False while the form that took it is open: a draft is shown as the preview but not
   * uploaded. Saving the horse queues it; cancelling discards it.
   */
  queued: boolean;
  /**
   * Progress of the upload, persisted before each next step so a retry after a crash or a
   * lost answer reuses them: the server answers the same object for the same bytes.
   */
  uploadURL: string | null;
  objectPath: string | null;
  uploaded: boolean;
  /** How often a fresh upload URL was needed because the old one could no longer be used. */
  renewals: number;
  /** The [I3] text of a real failure; such a photo waits for the next app start. */
  failed: string | null;
};

export type UploadProgress = Partial<Pick<OutboxPhoto, 'uploadURL' | 'objectPath' | 'uploaded' | 'renewals' | 'failed'>>;

/** Drafts older than this are left over from a form that never closed (a crash). */
export const DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export type PhotoOutbox = ReturnType<typeof createPhotoOutbox>;

/** The `photoOutbox` table of the device database; only photo code writes it. */
export function createPhotoOutbox(db: RanchDb, now: () => number = Date.now) {
  const queuedListeners = new Set<() => void>();
  return {
    /** Stores a picked photo at once, as a draft; returns its id. */
    async addDraft(bytes: ArrayBuffer, type: string, originalSize: number): Promise<string> {
      const id = newId();
      await db.photoOutbox.add({
        id,
        bytes,
        type,
        originalSize,
        createdAt: now(),
        queued: false,
        uploadURL: null,
        objectPath: null,
        uploaded: false,
        renewals: 0,
        failed: null,
      });
      return id;
    },

    /** The horse referring to it was saved: the photo may go. */
    async queue(id: string): Promise<void> {
      await db.photoOutbox.update(id, { queued: true });
      queuedListeners.forEach((listener) => listener());
    },

    /** Forgets a draft whose form was cancelled or whose photo was replaced; queued photos stay. */
    discardDraft(id: string): Promise<void> {
      return db.transaction('rw', db.photoOutbox, async () => {
        const photo = await db.photoOutbox.get(id);
        if (photo && !photo.queued) await db.photoOutbox.delete(id);
      });
    },

    get(id: string): Promise<OutboxPhoto | undefined> {
      return db.photoOutbox.get(id);
    },

    /** Queued photos, oldest first. */
    async queued(): Promise<OutboxPhoto[]> {
      const photos = await db.photoOutbox.orderBy('createdAt').toArray();
      return photos.filter((photo) => photo.queued);
    },

    /** Photos that have not reached the server (what "Clear Local Data" would lose). */
    async countWaiting(): Promise<number> {
      return db.photoOutbox.filter((photo) => photo.queued).count();
    },

    async record(id: string, progress: UploadProgress): Promise<void> {
      await db.photoOutbox.update(id, progress);
    },

    async remove(id: string): Promise<void> {
      await db.photoOutbox.delete(id);
    },

    /** At app start: failed photos get another chance, abandoned drafts go. */
    async tidy(): Promise<void> {
      const cutoff = now() - DRAFT_MAX_AGE_MS;
      await db.transaction('rw', db.photoOutbox, async () => {
        await db.photoOutbox.filter((photo) => !photo.queued && photo.createdAt < cutoff).delete();
        await db.photoOutbox.filter((photo) => photo.failed !== null).modify({ failed: null });
      });
    },

    /** Called after a photo is queued, so the uploader can start at once. */
    onQueued(listener: () => void): () => void {
      queuedListeners.add(listener);
      return () => queuedListeners.delete(listener);
    },
  };
}
