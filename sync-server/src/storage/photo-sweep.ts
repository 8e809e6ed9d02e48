import type { Sql } from '../db/client.ts';
import { OBJECT_PATH_PREFIX } from '../../../shared/index.ts';
import { removeStaleChunks } from './upload-chunks.ts';

/**
 * [I8] How long a photo no record refers to is kept: a device that was offline for days
 * uploads its queued photo when it is back, and the horse naming it may arrive a little
 * later, or a deleted horse may be brought back (docs/sync-rules.md "tombstones").
 */
export const PHOTO_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** How often each instance looks for photos to remove; the first look is a minute after the start. */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;
const FIRST_SWEEP_MS = 60 * 1000;

/** Advisory lock of the sweep: one instance sweeps at a time, the others skip that round. */
const SWEEP_LOCK = 7261004;

export type SweepOutcome =
  /** Another instance was sweeping. */
  | { skipped: true }
  /** `marked`: photos found unreferenced this time; `deleted`: ids removed, unreferenced for the whole grace. */
  | { skipped: false; marked: number; deleted: string[] };

/**
 * [I8] One sweep, in one transaction: photos a horse, a profile or the ranch's logo ([L9])
 * names lose their mark, photos none names get one (`objects.unreferenced_since`, the
 * sweep's time), and photos marked more than `graceMs` ago are deleted, with their upload URL. The grace thus runs
 * from when the last reference was seen gone (a photo never used: from its upload), and a
 * photo named again in between starts over. The chunks of uploads a crash cut short go too.
 * The references are the projection's, which the
 * document's commits keep current on every instance.
 */
export async function sweepPhotos(sql: Sql, graceMs = PHOTO_GRACE_MS): Promise<SweepOutcome> {
  const prefix = OBJECT_PATH_PREFIX;
  const like = `${prefix}%`;
  return sql.begin(async (tx) => {
    const [lock] = await tx<{ got: boolean }[]>`select pg_try_advisory_xact_lock(${SWEEP_LOCK}) as got`;
    if (!lock?.got) return { skipped: true } as const;
    const referenced = tx`
      select substr(photo_url, ${prefix.length + 1}) from horses where photo_url like ${like}
      union
      select substr(profile_image_url, ${prefix.length + 1}) from users where profile_image_url like ${like}
      union
      select substr(value, ${prefix.length + 1}) from ranch_settings where name = 'logo' and value like ${like}`;
    await tx`update objects set unreferenced_since = null where unreferenced_since is not null and id::text in (${referenced})`;
    const marked = await tx`
      update objects set unreferenced_since = now() where unreferenced_since is null and id::text not in (${referenced})`;
    // The references are read again by the delete itself, so a horse committed since the marks counts.
    const deleted = await tx<{ id: string }[]>`
      delete from objects
      where unreferenced_since <= now() - make_interval(secs => ${graceMs / 1000}) and id::text not in (${referenced})
      returning id`;
    const ids = deleted.map(({ id }) => id);
    if (ids.length > 0) await tx`delete from upload_tokens where object_id in ${tx(ids)}`;
    await removeStaleChunks(tx);
    return { skipped: false, marked: marked.count, deleted: ids } as const;
  });
}

export type PhotoSweeper = {
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
};

/**
 * Sweeps a minute after the start, then every `everyMs`. A failed sweep (the database away)
 * is logged in one line and tried again next time; the timer keeps no process alive.
 */
export function startPhotoSweeper(sql: Sql, everyMs = SWEEP_EVERY_MS, graceMs = PHOTO_GRACE_MS): PhotoSweeper {
  let running: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweepPhotos(sql, graceMs)
        .then((outcome) => {
          if (!outcome.skipped && outcome.deleted.length > 0) {
            console.log(`Removed ${outcome.deleted.length} photo(s) no horse has shown for ${Math.round(graceMs / 86_400_000)} days`);
          }
        })
        .catch((error: Error) => console.warn(`Photo clean-up failed, tried again later: ${error.message}`))
        .finally(() => {
          running = undefined;
          schedule(everyMs);
        });
    }, ms);
    timer.unref();
  };
  schedule(Math.min(FIRST_SWEEP_MS, everyMs));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
