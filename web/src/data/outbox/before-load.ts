import { callWrite, type RanchWrites, shownBeforeLoad, writesThrough } from '../ranch-writes.ts';
import type { BeforeLoadOptions } from './shown-before-load.ts';
import { zodFirst } from '../../lib/zod-first.ts';
import { yieldToBrowser } from '../time-slices.ts';

/** What is used of shown-before-load.ts (`loadModule` imports it; tests count the loads). */
type ShowingModule = Pick<typeof import('./shown-before-load.ts'), 'showWritesBeforeLoad'>;

/**
 * `showWritesBeforeLoad` of shown-before-load.ts, its module loaded by the first create or
 * edit made before the data worker has loaded (docs/web.md "A small entry"). That module
 * brings Yjs, the repositories and their zod schemas: evaluating them was most of a phone's
 * first long task, and a start rarely writes in its first seconds. Everything else goes
 * straight to `remote`, as the staging itself would send it.
 */
export function writesBeforeLoad(
  remote: RanchWrites,
  options: BeforeLoadOptions,
  loadModule: () => Promise<ShowingModule> = loadInSteps,
  fetchModules: () => Promise<unknown> = () => import('./fetch-before-load.ts'),
): { writes: RanchWrites; fetch(): void; prepare(): void } {
  let staging: Promise<RanchWrites> | undefined;
  let fetching: Promise<unknown> | undefined;
  const load = (): Promise<RanchWrites> => {
    staging ??= loadModule().then(
      async (module) => {
        // The module was evaluated in this task; a write that waited for it is staged in the
        // next, not in one long task with it.
        await yieldToBrowser();
        return module.showWritesBeforeLoad(remote, options);
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
      const target = options.isLoaded() || !shownBeforeLoad(repository, method) ? remote : await load();
      return callWrite(target, repository, method, args);
    }),
    // A form that adds or edits is about to open (the tap): its write's code is fetched now,
    // alongside the form's, and nothing of it evaluated, which would hold the form back;
    // otherwise the steps below would fetch in turn once the form showed. A task after the
    // tap's: the preload links are each a share of the task that makes them.
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
    // is pressed (a phone's fetching and evaluating would come after the tap).
    prepare() {
      if (!options.isLoaded()) load().catch(() => {}); // The write itself tries again.
    },
  };
}

/**
 * The staging module in steps: zod, the records' zod schemas (the projection validates
 * with them) in three, then the module itself (Yjs, the projection, the repositories).
 * Evaluated together they are one long task on a phone during a start, much of it building
 * the schemas (docs/web.md "Dialogs that open at once"), so the schemas come in three
 * modules of about equal weight. They are imported one after another with no yield between:
 * the browser evaluates each in a task of its own. `STAGING_STEPS` in vite.config.ts names these three modules, in this
 * order: the first one's preload links fetch the rest (a step added here belongs there too).
 */
async function loadInSteps(): Promise<ShowingModule> {
  await zodFirst();
  await import('../../../../shared/schemas/care.ts');
  await import('../../../../shared/schemas/sale.ts');
  await import('../../../../shared/schemas/records.ts');
  await yieldToBrowser();
  return import('./shown-before-load.ts');
}
