import { callWrite, isStagedEdit, type RanchWrites, type StagedEditRepository, stagedBeforeLoad, writesThrough } from './ranch-writes.ts';
import type { StagingOptions } from './staged-writes.ts';
import { zodFirst } from '../lib/zod-first.ts';
import { yieldToBrowser } from './time-slices.ts';

/** What is used of staged-writes.ts (`loadModule` imports it; tests count the loads). */
type StagingModule = Pick<typeof import('./staged-writes.ts'), 'stageWritesBeforeLoad'>;

/**
 * `stageWritesBeforeLoad` of staged-writes.ts, its module loaded by the first create or
 * edit made before the data worker has loaded (docs/web.md "A small entry"). That module
 * brings Yjs, the repositories and their zod schemas: evaluating them was most of a phone's
 * first long task, and a start rarely writes in its first seconds. Everything else goes
 * straight to `remote`, as the staging itself would send it.
 */
export function stageWritesBeforeLoad(
  remote: RanchWrites,
  options: StagingOptions,
  loadModule: () => Promise<StagingModule> = loadInSteps,
  fetchModules: () => Promise<unknown> = () => import('./staging-fetch.ts'),
): { writes: RanchWrites; fetch(): void; prepare(): void } {
  let staging: Promise<RanchWrites> | undefined;
  let fetching: Promise<unknown> | undefined;
  let ready = false;
  // Staged writes waiting for the module, and the rows read for edits among them (below).
  let waiting = 0;
  const rowReads = new Map<string, Promise<unknown>>();
  const rowKey = (repository: string, id: string) => `${repository}\u0000${id}`;
  const takeRowRead = (repository: StagedEditRepository, id: string) => {
    const read = rowReads.get(rowKey(repository, id));
    rowReads.delete(rowKey(repository, id));
    return read;
  };
  const load = (): Promise<RanchWrites> => {
    staging ??= loadModule().then(
      async (module) => {
        // The module was evaluated in this task; a write that waited for it is staged in the
        // next (a phone's trace had both in one task of 210 ms, CPU 4x).
        await yieldToBrowser();
        ready = true;
        return module.stageWritesBeforeLoad(remote, { ...options, takeRowRead });
      },
      (error: unknown) => {
        staging = undefined; // The next staged write tries again.
        throw error;
      },
    );
    return staging;
  };
  return {
    writes: writesThrough(async (repository, method, args) => {
      if (options.isLoaded() || !stagedBeforeLoad(repository, method)) return callWrite(remote, repository, method, args);
      // An edit made while the staging code loads reads its record's row meanwhile, not after:
      // during a start anew that read waited ~100 ms behind the data worker's (docs/performance.md
      // "Code fetched at the tap"). Only when no other staged write waits, which could change
      // the row first; taken once by the edit, and dropped if the edit goes elsewhere.
      const id = args[0];
      const key =
        typeof id === 'string' && isStagedEdit(repository, method) && !ready && waiting === 0 ? rowKey(repository, id) : undefined;
      if (key !== undefined && isStagedEdit(repository, method)) {
        const read: Promise<unknown> = Promise.resolve(options.db[repository].get(String(id)));
        read.catch(() => {}); // Reported by the edit that takes it.
        rowReads.set(key, read);
      }
      waiting++;
      try {
        return await callWrite(await load(), repository, method, args);
      } finally {
        waiting--;
        if (key !== undefined) rowReads.delete(key);
      }
    }),
    // A form that adds or edits is about to open (the tap): its write's code is fetched now,
    // alongside the form's, and nothing of it evaluated, which would hold the form back. In a
    // start anew the steps below then fetched in turn once the form showed, 0.4-0.6 s before
    // the staging was ready on the phone bench (docs/performance.md "Code fetched at the tap").
    // A task after the tap's: each of the 16 preload links was ~3 ms of the tap's task there.
    fetch() {
      if (options.isLoaded() || staging || fetching) return;
      fetching = yieldToBrowser()
        .then(fetchModules)
        .catch(() => {
          fetching = undefined; // The load fetches what it needs itself.
        });
    },
    // A form that adds or edits opened: its write will be staged unless the host loads
    // first, so the module loads now, while the person types, and not after Create or Update
    // is pressed (~0.2 s of a phone's fetching and evaluating; docs/performance.md).
    prepare() {
      if (!options.isLoaded()) load().catch(() => {}); // The write itself tries again.
    },
  };
}

/**
 * The staging module in steps: zod, the records' zod schemas (the projection validates
 * with them) in three, then the module itself (Yjs, the projection, the repositories).
 * Evaluated together they were one task of 120-140 ms on a phone (CPU 4x) during a start,
 * half of it building the schemas (docs/web.md "Dialogs that open at once"); the schemas
 * alone were still one task of 86-117 ms on a slower host, where care's, the sale's and the
 * rest each take 15-40 ms (docs/performance.md "The records' schemas in three tasks"). They
 * are imported one after another with no yield between: each was evaluated in a task of its
 * own in the phone runs. `STAGING_STEPS` in vite.config.ts names these three modules, in this
 * order: the first one's preload links fetch the rest (a step added here belongs there too).
 */
async function loadInSteps(): Promise<StagingModule> {
  await zodFirst();
  await import('../../../shared/schemas/care.ts');
  await import('../../../shared/schemas/sale.ts');
  await import('../../../shared/schemas/records.ts');
  await yieldToBrowser();
  return import('./staged-writes.ts');
}
