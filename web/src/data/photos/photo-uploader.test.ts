import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRanchDb, type RanchDb } from '../db.ts';
import { createPhotoOutbox, type PhotoOutbox } from './photo-outbox.ts';
import { outboxRef } from './photo-ref.ts';
import { backoffDelay, createPhotoUploader, retryAfterMs, type PhotoUploader, type UploadEvent } from './photo-uploader.ts';

/** A fake server for the three photo calls, recording every request; `next` scripts failures. */
function fakeServer() {
  const calls: string[] = [];
  const objects = new Map<string, string>(); // upload URL → object path
  let urls = 0;
  /** Scripted answers for the next calls, by call name: a status, or 'network' for a rejected fetch. */
  const next: Record<string, (number | 'network' | Response)[]> = {};
  const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input);
    const method = init.method ?? 'GET';
    const name = url === '/api/objects/upload' ? 'url' : url === '/api/horse-photos' ? 'register' : 'put';
    calls.push(name);
    const scripted = next[name]?.shift();
    if (scripted === 'network') throw new TypeError('Failed to fetch');
    if (scripted instanceof Response) return scripted;
    if (scripted !== undefined) return answer(scripted, { message: 'scripted' });
    // [I2] A POST, which the Origin check guards (a GET would be refused).
    if (name === 'url' && method === 'POST') {
      urls += 1;
      return answer(200, { uploadURL: `/api/objects/upload/token-${urls}`, objectPath: `/api/objects/object-${urls}` });
    }
    if (name === 'put') {
      objects.set(url, url.replace('/api/objects/upload/token-', '/api/objects/object-'));
      return answer(200, { objectPath: objects.get(url) });
    }
    const photoURL = (JSON.parse(String(init.body)) as { photoURL: string }).photoURL;
    const path = objects.get(photoURL);
    return path ? answer(200, { objectPath: path }) : answer(400, { message: 'no such upload' });
  };
  return { fetch, calls, objects, next, urlsHandedOut: () => urls };
}

/** Horses as the uploader sees them: photoUrl by horse id. */
function fakeHorses(photos: Record<string, string>) {
  return {
    photos,
    photoInUse: (ref: string) => Object.values(photos).includes(ref),
    replacePhoto(from: string, to: string) {
      let changed = 0;
      for (const [id, url] of Object.entries(photos)) {
        if (url !== from) continue;
        photos[id] = to;
        changed += 1;
      }
      return changed;
    },
  };
}

/** Timers under the test's control: nothing waits for real. */
function manualTimers() {
  const pending: { run: () => void; ms: number }[] = [];
  return {
    pending,
    setTimer: (run: () => void, ms: number) => {
      const timer = { run, ms };
      pending.push(timer);
      return timer;
    },
    clearTimer: (handle: unknown) => {
      const index = pending.indexOf(handle as (typeof pending)[number]);
      if (index >= 0) pending.splice(index, 1);
    },
    fire() {
      const timer = pending.shift();
      if (!timer) throw new Error('no timer pending');
      timer.run();
      return timer.ms;
    },
  };
}

let counter = 0;
describe('photo uploader', () => {
  let db: RanchDb;
  let outbox: PhotoOutbox;
  let server: ReturnType<typeof fakeServer>;
  let timers: ReturnType<typeof manualTimers>;
  let events: UploadEvent[];
  const uploaders: PhotoUploader[] = [];

  beforeEach(() => {
    counter += 1;
    db = openRanchDb(`uploader-${Date.now()}-${counter}`);
    outbox = createPhotoOutbox(db);
    server = fakeServer();
    timers = manualTimers();
    events = [];
  });
  afterEach(async () => {
    uploaders.splice(0).forEach((uploader) => uploader.stop());
    await db.delete();
  });

  const uploader = (horses: ReturnType<typeof fakeHorses>, random = () => 0.5, isOnline?: () => boolean) => {
    const created = createPhotoUploader({
      outbox,
      horses,
      fetch: server.fetch,
      random,
      setTimer: timers.setTimer,
      clearTimer: timers.clearTimer,
      isOnline,
    });
    created.onEvent((event) => events.push(event));
    uploaders.push(created);
    return created;
  };
  const queuedPhoto = async () => {
    const id = await outbox.addDraft(new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]).buffer, 'image/jpeg', 12_000_000);
    await outbox.queue(id);
    return id;
  };

  it('[I2] [I3] uploads, points the horse at the object path, empties the entry and says so once', async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    const up = uploader(horses);
    await up.start();
    await up.idle();
    expect(server.calls).toEqual(['url', 'put', 'register']);
    expect(horses.photos.h1).toBe('/api/objects/object-1');
    expect(await db.photoOutbox.count()).toBe(0);
    expect(events).toEqual([{ kind: 'uploaded', id, objectPath: '/api/objects/object-1' }]);
    await up.kick();
    expect(events).toHaveLength(1);
  });

  it('[A12] names the user whose photo it sends on every call, so another user’s session refuses it', async () => {
    const id = await queuedPhoto();
    const headers: (string | null)[] = [];
    const recordingFetch = server.fetch;
    server.fetch = async (input, init = {}) => {
      headers.push(new Headers(init.headers).get('x-ranch-user'));
      return recordingFetch(input, init);
    };
    const horses = fakeHorses({ h1: outboxRef(id) });
    const up = createPhotoUploader({ outbox, horses, fetch: (input, init) => server.fetch(input, init), random: () => 0.5 });
    uploaders.push(up);
    await up.start('user-ann');
    await up.idle();
    expect(server.calls).toEqual(['url', 'put', 'register']);
    expect(headers).toEqual(['user-ann', 'user-ann', 'user-ann']);
  });

  it('[O1] sends nothing while the page says offline, and sends when it says online and kicks', async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    let online = false;
    const up = uploader(horses, undefined, () => online);
    await up.start();
    await up.idle();
    expect(server.calls).toEqual([]);
    expect(timers.pending).toEqual([]);
    online = true;
    await up.kick();
    await up.idle();
    expect(server.calls).toEqual(['url', 'put', 'register']);
    expect(horses.photos.h1).toBe('/api/objects/object-1');
  });

  it('[I4] does not send drafts, and drops a queued photo no horse shows any more', async () => {
    const draft = await outbox.addDraft(new ArrayBuffer(4), 'image/jpeg', 4);
    const orphan = await queuedPhoto();
    const up = uploader(fakeHorses({ h1: outboxRef(draft) }));
    await up.start();
    await up.idle();
    expect(server.calls).toEqual([]);
    expect(await outbox.get(orphan)).toBeUndefined();
    expect(await outbox.get(draft)).toBeDefined();
  });

  it('[I4] offline: retries with exponential backoff and jitter, without a failure toast, and a kick retries at once', async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    server.next.url = ['network', 'network', 503, 'network'];
    const up = uploader(horses, () => 0);
    await up.start();
    await up.idle();
    // random 0 → half of base·2^attempt: 1 s, 2 s, 4 s …
    expect(timers.pending.map((timer) => timer.ms)).toEqual([1000]);
    timers.fire();
    await up.idle();
    expect(timers.pending.map((timer) => timer.ms)).toEqual([2000]);
    timers.fire();
    await up.idle();
    expect(timers.pending.map((timer) => timer.ms)).toEqual([4000]);
    // The `online` event: the backoff starts over and the attempt is made now.
    await up.kick();
    expect(timers.pending.map((timer) => timer.ms)).toEqual([1000]);
    timers.fire();
    await up.idle();
    expect(horses.photos.h1).toBe('/api/objects/object-1');
    expect(events.map((event) => event.kind)).toEqual(['uploaded']);
    expect(timers.pending).toEqual([]);
  });

  it('[I4] a busy server (429 or 503 with Retry-After) is tried again no sooner than it asked, without a toast', async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    const busy = (status: number, retryAfter: string) =>
      new Response(JSON.stringify({ message: 'busy' }), { status, headers: { 'retry-after': retryAfter } });
    server.next.url = [busy(429, '30')];
    server.next.put = [busy(503, '5'), busy(429, '1')];
    const up = uploader(horses, () => 0);
    await up.start();
    await up.idle();
    // The backoff alone would wait 1 s: the server asked for 30.
    expect(timers.pending.map((timer) => timer.ms)).toEqual([30_000]);
    timers.fire();
    await up.idle();
    expect(timers.pending.map((timer) => timer.ms)).toEqual([5000]);
    timers.fire();
    await up.idle();
    // Less than the backoff (4 s at the third try): the backoff.
    expect(timers.pending.map((timer) => timer.ms)).toEqual([4000]);
    timers.fire();
    await up.idle();
    expect(horses.photos.h1).toBe('/api/objects/object-1');
    expect(events.map((event) => event.kind)).toEqual(['uploaded']);
  });

  it('[I4] reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-12-07T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Mon, 07 Dec 2026 10:00:20 GMT', now)).toBe(20_000);
    expect(retryAfterMs('Mon, 07 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBe(0);
  });

  it('[I4] backoff stays between half and all of the capped ceiling', () => {
    expect(backoffDelay(0, () => 0)).toBe(1000);
    expect(backoffDelay(0, () => 1)).toBe(2000);
    expect(backoffDelay(3, () => 0.5)).toBe(12_000);
    expect(backoffDelay(30, () => 1)).toBe(300_000);
    expect(backoffDelay(30, () => 0)).toBe(150_000);
  });

  it('[I4] a crash after the bytes were sent reuses the stored upload URL: one object, one horse write', async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    // The answer to the registration is lost (the device dies, or the signal goes).
    server.next.register = ['network'];
    const first = uploader(horses);
    await first.start();
    await first.idle();
    first.stop();
    expect(await outbox.get(id)).toMatchObject({ uploadURL: '/api/objects/upload/token-1', uploaded: true });

    // The app starts again: a new uploader over the same outbox.
    const second = uploader(horses);
    await second.start();
    await second.idle();
    expect(server.urlsHandedOut()).toBe(1);
    expect(server.calls).toEqual(['url', 'put', 'register', 'register']);
    expect(horses.photos.h1).toBe('/api/objects/object-1');
    expect(await db.photoOutbox.count()).toBe(0);
  });

  it('[I4] a crash between getting the URL and sending the bytes sends them to the same URL', async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    server.next.put = ['network'];
    const first = uploader(horses);
    await first.start();
    await first.idle();
    first.stop();
    const second = uploader(horses);
    await second.start();
    await second.idle();
    expect(server.calls).toEqual(['url', 'put', 'put', 'register']);
    expect([...server.objects.keys()]).toEqual(['/api/objects/upload/token-1']);
    expect(horses.photos.h1).toBe('/api/objects/object-1');
  });

  it('[I4] an upload URL that expired while offline is renewed quietly', async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    server.next.put = [410];
    const up = uploader(horses);
    await up.start();
    await up.idle();
    expect(server.calls).toEqual(['url', 'put', 'url', 'put', 'register']);
    expect(horses.photos.h1).toBe('/api/objects/object-2');
    expect(events.map((event) => event.kind)).toEqual(['uploaded']);
  });

  it('[A7] [O3] 401 pauses and keeps the photo for the next sign-in', async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    server.next.url = [401];
    const first = uploader(horses);
    await first.start();
    await first.idle();
    expect(events).toEqual([{ kind: 'unauthorized' }]);
    expect(timers.pending).toEqual([]);
    await first.kick();
    expect(server.calls).toEqual(['url']);
    expect(await outbox.get(id)).toMatchObject({ queued: true, failed: null });
    first.stop();

    const afterSignIn = uploader(horses);
    await afterSignIn.start();
    await afterSignIn.idle();
    expect(horses.photos.h1).toBe('/api/objects/object-1');
  });

  it("[I7] a 413 (photo storage full) keeps the photo queued, passes on the server's reason once, and waits for the next start", async () => {
    const id = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(id) });
    server.next.put = [413];
    const up = uploader(horses);
    await up.start();
    await up.idle();
    expect(events).toEqual([{ kind: 'failed', id, message: 'Failed to process photo upload', reason: 'scripted' }]);
    // Not retried with backoff, nor by a kick: a refusal for what the photo is, not a network problem.
    expect(timers.pending).toEqual([]);
    await up.kick();
    await up.idle();
    expect(server.calls).toEqual(['url', 'put']);
    expect(await outbox.get(id)).toMatchObject({ queued: true, failed: 'Failed to process photo upload' });
    expect(horses.photos.h1).toBe(outboxRef(id));
    up.stop();

    // Space was freed meanwhile: the next start sends it.
    const restarted = uploader(horses);
    await restarted.start();
    await restarted.idle();
    expect(horses.photos.h1).toBe('/api/objects/object-1');
    expect(await outbox.countWaiting()).toBe(0);
  });

  it('[I3] real refusals show the failure texts once and wait for the next start', async () => {
    const refusedUrl = await queuedPhoto();
    const refusedBytes = await queuedPhoto();
    const horses = fakeHorses({ h1: outboxRef(refusedUrl), h2: outboxRef(refusedBytes) });
    server.next.url = [403];
    server.next.put = [415];
    const up = uploader(horses);
    await up.start();
    await up.idle();
    expect(events).toEqual([
      { kind: 'failed', id: refusedUrl, message: 'Failed to get upload URL' },
      { kind: 'failed', id: refusedBytes, message: 'Failed to process photo upload' },
    ]);
    await up.kick();
    expect(events).toHaveLength(2);
    expect(await outbox.countWaiting()).toBe(2);
    up.stop();

    const restarted = uploader(horses);
    await restarted.start();
    await restarted.idle();
    expect(Object.values(horses.photos).every((url) => url.startsWith('/api/objects/object-'))).toBe(true);
    expect(await outbox.countWaiting()).toBe(0);
  });
});
