import { SENDER_HEADER } from '../../../../shared/index.ts';
import type { PhotoOutbox, OutboxPhoto } from './photo-outbox.ts';
import { outboxRef } from './photo-ref.ts';

/** [I3] texts of the two photo failures. */
export type UploadFailure = 'Failed to get upload URL' | 'Failed to process photo upload';

export type UploadEvent =
  | { kind: 'uploaded'; id: string; objectPath: string }
  /** `reason`: the server's own message of a 413 ([I1] too large, [I7] photo storage full), for the toast. */
  | { kind: 'failed'; id: string; message: UploadFailure; reason?: string }
  /** The session is gone (401): uploads pause, the photos stay queued for the next sign-in. */
  | { kind: 'unauthorized' };

/** The horse writes the uploader needs; the horse repository provides them. */
export type PhotoHorses = {
  photoInUse(ref: string): boolean;
  replacePhoto(from: string, to: string): number;
};

export type UploaderOptions = {
  outbox: PhotoOutbox;
  horses: PhotoHorses;
  fetch?: typeof fetch;
  random?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Whether the page says the device is online (the data worker's own network state may not
   * follow the page's): nothing is sent while this is false; setOnline(true) kicks.
   */
  isOnline?: () => boolean;
};

export const BASE_DELAY_MS = 2_000;
export const MAX_DELAY_MS = 5 * 60_000;
/** A photo gets a fresh upload URL at most this often before a refusal counts as real. */
export const MAX_RENEWALS = 2;

/**
 * Exponential backoff with "equal jitter": between half and all of base·2^attempt (capped),
 * so phones that lost signal together do not all come back in the same second.
 */
export function backoffDelay(attempt: number, random: () => number, base = BASE_DELAY_MS, max = MAX_DELAY_MS): number {
  const ceiling = Math.min(max, base * 2 ** attempt);
  return ceiling / 2 + (random() * ceiling) / 2;
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds; 0 when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header) return 0;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 0 : Math.max(0, at - now);
}

type Outcome = 'done' | 'retry' | 'unauthorized' | 'failed' | 'renew';

export type PhotoUploader = ReturnType<typeof createPhotoUploader>;

/**
 * Sends queued photos to the server ([I2]: upload URL → bytes → registration), then
 * points the horse at the object path and empties the entry. Runs one photo at a time;
 * a network failure, 5xx or 429 waits with backoff (at least as long as a Retry-After says), a kick (online, app start, the page shown
 * again, a new photo) tries at once. Each step's result is stored before the next, and the
 * server answers the same object for the same bytes, so no retry makes a second object;
 * the uploader never creates horses, so none is duplicated.
 */
export function createPhotoUploader(options: UploaderOptions) {
  const { outbox, horses } = options;
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const random = options.random ?? Math.random;
  const setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  const isOnline = options.isOnline ?? (() => true);
  const listeners = new Set<(event: UploadEvent) => void>();
  const emit = (event: UploadEvent) => listeners.forEach((listener) => listener(event));

  let active = false;
  let paused = false;
  let attempt = 0;
  let timer: unknown = null;
  let running: Promise<void> | null = null;
  let again = false;
  let retryDelay: number | null = null;

  /** The user whose photos these are ([A12]): every request names them, so another user's session refuses it (401). */
  let senderId: string | null = null;
  /** What the last 429 or 503 asked for in Retry-After: the next try waits at least that long. */
  let serverWaitMs = 0;
  const request = async (url: string, init: RequestInit = {}) => {
    const response = await fetchFn(url, {
      credentials: 'include',
      cache: 'no-store',
      ...init,
      ...(senderId ? { headers: { ...(init.headers as Record<string, string> | undefined), [SENDER_HEADER]: senderId } } : {}),
    });
    if (response.status === 429 || response.status === 503) serverWaitMs = retryAfterMs(response.headers.get('retry-after'));
    return response;
  };

  const failure = async (photo: OutboxPhoto, status: number, message: UploadFailure, reason?: string): Promise<Outcome> => {
    if (status === 401) return 'unauthorized';
    if (status >= 500 || status === 408 || status === 429) return 'retry';
    await outbox.record(photo.id, { failed: message });
    emit({ kind: 'failed', id: photo.id, message, ...(reason ? { reason } : {}) });
    return 'failed';
  };

  /** The `message` of a 413's JSON body: what the user can do about it ([I7]). */
  const reasonOf = async (response: Response): Promise<string | undefined> => {
    if (response.status !== 413) return undefined;
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    return typeof body?.message === 'string' ? body.message : undefined;
  };

  /** The URL can no longer be used (expired, cleaned up, another user's): start over with a new one. */
  const renew = async (photo: OutboxPhoto, status: number): Promise<Outcome> => {
    if (photo.renewals >= MAX_RENEWALS) return failure(photo, status, 'Failed to process photo upload');
    await outbox.record(photo.id, { uploadURL: null, objectPath: null, uploaded: false, renewals: photo.renewals + 1 });
    return 'renew';
  };

  async function step(photo: OutboxPhoto): Promise<Outcome> {
    const ref = outboxRef(photo.id);
    // Replaced by another photo, or the horse was deleted: nothing to send it for.
    if (!horses.photoInUse(ref)) {
      await outbox.remove(photo.id);
      return 'done';
    }
    let { uploadURL, objectPath } = photo;
    if (!uploadURL) {
      const response = await request('/api/objects/upload', { method: 'POST' });
      if (!response.ok) return failure(photo, response.status, 'Failed to get upload URL');
      ({ uploadURL, objectPath } = (await response.json()) as { uploadURL: string; objectPath: string });
      await outbox.record(photo.id, { uploadURL, objectPath });
    }
    if (!photo.uploaded) {
      const response = await request(uploadURL, { method: 'PUT', headers: { 'Content-Type': photo.type }, body: photo.bytes });
      if ([403, 404, 410].includes(response.status)) return renew(photo, response.status);
      // [I7] 413 (photo storage full, or too large): kept, tried again at the next start, the reason shown.
      if (!response.ok) return failure(photo, response.status, 'Failed to process photo upload', await reasonOf(response));
      objectPath = ((await response.json()) as { objectPath?: string }).objectPath ?? objectPath;
      await outbox.record(photo.id, { uploaded: true, objectPath });
    }
    const response = await request('/api/horse-photos', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ photoURL: uploadURL }),
    });
    // 400: the server does not know this upload as ours (say, another user signed in since).
    if (response.status === 400) return renew(photo, response.status);
    if (!response.ok) return failure(photo, response.status, 'Failed to process photo upload');
    const confirmed = ((await response.json()) as { objectPath: string }).objectPath;
    // The horse write comes before the entry goes: a crash in between only repeats the
    // (idempotent) registration at the next start.
    horses.replacePhoto(ref, confirmed);
    await outbox.remove(photo.id);
    emit({ kind: 'uploaded', id: photo.id, objectPath: confirmed });
    return 'done';
  }

  async function send(id: string): Promise<Outcome> {
    for (;;) {
      const photo = await outbox.get(id);
      if (!photo) return 'done';
      let outcome: Outcome;
      try {
        outcome = await step(photo);
      } catch (error) {
        // fetch rejects when there is no network; anything else unexpected also waits and tries again.
        if (!(error instanceof TypeError)) console.error('Photo upload', error);
        outcome = 'retry';
      }
      if (outcome !== 'renew') return outcome;
    }
  }

  /**
   * Every open tab runs an uploader over the same outbox; a Web Lock lets one send at a
   * time, and the other then reads the progress it stored (or finds the photo gone).
   */
  function pass(): Promise<void> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    return locks ? locks.request('ranch-photo-uploads', passLocked) : passLocked();
  }

  async function passLocked(): Promise<void> {
    for (const photo of await outbox.queued()) {
      if (!active || paused || !isOnline()) return;
      if (photo.failed) continue;
      const outcome = await send(photo.id);
      if (outcome === 'unauthorized') {
        paused = true;
        emit({ kind: 'unauthorized' });
        return;
      }
      if (outcome === 'retry') {
        retryDelay = Math.max(
          backoffDelay(attempt, random, options.baseDelayMs, options.maxDelayMs),
          Math.min(serverWaitMs, options.maxDelayMs ?? MAX_DELAY_MS),
        );
        serverWaitMs = 0;
        attempt += 1;
        if (timer !== null) clearTimer(timer);
        timer = setTimer(() => {
          timer = null;
          void run();
        }, retryDelay);
        return;
      }
    }
    attempt = 0;
    retryDelay = null;
  }

  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = pass().finally(() => {
      running = null;
      if (again) {
        again = false;
        void run();
      }
    });
    return running;
  }

  /** Try now: the backoff starts again from the shortest delay. */
  function kick(): Promise<void> {
    if (!active || paused || !isOnline()) return Promise.resolve();
    if (timer !== null) {
      clearTimer(timer);
      timer = null;
    }
    attempt = 0;
    return run();
  }

  const onVisible = () => {
    if (document.visibilityState === 'visible') void kick();
  };
  const onKick = () => void kick();
  let stopQueued: (() => void) | null = null;

  return {
    /** Starts sending (once signed in) as `sender`, the user the photos are of: tidies the outbox, then tries at once. */
    async start(sender?: string): Promise<void> {
      if (active) return;
      active = true;
      senderId = sender ?? null;
      paused = false;
      // In the data worker there is `online` but no document: the page calls kick() when it
      // is shown again (docs/web.md "The data layer in a worker").
      globalThis.addEventListener?.('online', onKick);
      if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
      stopQueued = outbox.onQueued(onKick);
      await outbox.tidy();
      await kick();
    },
    stop(): void {
      active = false;
      if (timer !== null) clearTimer(timer);
      timer = null;
      stopQueued?.();
      globalThis.removeEventListener?.('online', onKick);
      if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
    },
    kick,
    /** Resolves when the pass under way (if any) has finished. */
    idle(): Promise<void> {
      return running ?? Promise.resolve();
    },
    /** The wait before the next try, while one is scheduled. */
    nextRetryDelay(): number | null {
      return timer === null ? null : retryDelay;
    },
    onEvent(listener: (event: UploadEvent) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
