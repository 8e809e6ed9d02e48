import { afterEach, describe, expect, it } from 'vitest';
import { openRanchDb, type RanchDb } from '../db.ts';
import { createPhotoOutbox } from '../photos/photo-outbox.ts';
import { writesThrough } from '../ranch-writes.ts';
import { writesBeforeLoad } from './before-load.ts';

const BREED = '0190a000-0000-7000-8000-0000000000b1';
const HORSE = { name: 'Foal', breedId: BREED, colorId: BREED, genderId: BREED };
let counter = 0;
const opened: RanchDb[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

/** The page's side while the data worker loads: a host that answers nothing, the real staging module, its loads and fetches counted. */
function loadingPage(options: { failFirstLoad?: boolean; failFirstFetch?: boolean; loaded?: boolean } = {}) {
  const db = openRanchDb(`on-demand-${Date.now()}-${++counter}`);
  opened.push(db);
  const toHost: string[] = [];
  const remote = writesThrough(async (repository, method) => {
    toHost.push(`${repository}.${method}`);
    return 'answered by the host';
  });
  let loads = 0;
  let fetches = 0;
  const staging = writesBeforeLoad(
    remote,
    { db, photos: createPhotoOutbox(db), isLoaded: () => options.loaded ?? false, drainOutbox() {} },
    async () => {
      loads++;
      if (options.failFirstLoad && loads === 1) throw new Error('chunk not reached');
      return import('./shown-before-load.ts');
    },
    async () => {
      fetches++;
      if (options.failFirstFetch && fetches === 1) throw new Error('chunk not reached');
      return import('./fetch-before-load.ts');
    },
  );
  return { db, staging, toHost, loads: () => loads, fetches: () => fetches };
}

describe('staged creates loaded on demand', () => {
  it('a create form opened during the load loads the staging code then, once; its create is staged with it', async () => {
    const { db, staging, toHost, loads } = loadingPage();
    expect(loads()).toBe(0);
    staging.prepare();
    staging.prepare();
    expect(loads()).toBe(1);
    const id = await staging.writes.horses.create(HORSE);
    expect(loads()).toBe(1);
    expect((await db.horses.get(String(id)))?.name).toBe('Foal');
    expect(toHost).toEqual([]);
  });

  it('once the host has loaded, opening a form loads nothing and the create goes to the host', async () => {
    const { staging, toHost, loads } = loadingPage({ loaded: true });
    staging.prepare();
    expect(await staging.writes.horses.create(HORSE)).toBe('answered by the host');
    expect(loads()).toBe(0);
    expect(toHost).toEqual(['horses.create']);
  });

  it('with its own loader (the schemas, then the staging module, a task apart) a create is staged on the device', async () => {
    const db = openRanchDb(`on-demand-${Date.now()}-${++counter}`);
    opened.push(db);
    const toHost: string[] = [];
    const remote = writesThrough(async (repository, method) => {
      toHost.push(`${repository}.${method}`);
    });
    const staging = writesBeforeLoad(remote, { db, photos: createPhotoOutbox(db), isLoaded: () => false, drainOutbox() {} });
    staging.prepare();
    const id = await staging.writes.horses.create(HORSE);
    expect((await db.horses.get(String(id)))?.name).toBe('Foal');
    expect(await db.outbox.toArray()).toMatchObject([{ repository: 'horses', method: 'create', creates: [id], answered: true }]);
    expect(toHost).toEqual([]);
  });

  it('a create that waited for the staging code is staged in a later task than the one that evaluated it', async () => {
    const db = openRanchDb(`on-demand-${Date.now()}-${++counter}`);
    opened.push(db);
    let evaluating = false;
    let stagedWhileEvaluating: boolean | undefined;
    const staging = writesBeforeLoad(
      writesThrough(async () => {}),
      { db, photos: createPhotoOutbox(db), isLoaded: () => false, drainOutbox() {} },
      async () => {
        const module = await import('./shown-before-load.ts');
        // The task that evaluated the module ends when the timer below may run.
        evaluating = true;
        setTimeout(() => {
          evaluating = false;
        }, 0);
        return {
          showWritesBeforeLoad: (...args: Parameters<typeof module.showWritesBeforeLoad>) => {
            stagedWhileEvaluating = evaluating;
            return module.showWritesBeforeLoad(...args);
          },
        };
      },
    );
    const id = await staging.writes.horses.create(HORSE);
    expect(stagedWhileEvaluating).toBe(false);
    expect((await db.horses.get(String(id)))?.name).toBe('Foal');
  });

  it('the tap fetches the staging code once, in a task after its own, and evaluates none of it; the form then loads it', async () => {
    const { db, staging, loads, fetches } = loadingPage();
    staging.fetch();
    staging.fetch();
    expect(fetches()).toBe(0); // Not in the tap's task.
    await expect.poll(fetches).toBe(1);
    expect(loads()).toBe(0);
    staging.prepare();
    expect(loads()).toBe(1);
    staging.fetch(); // Loading already: nothing more to fetch.
    expect(fetches()).toBe(1);
    const id = await staging.writes.horses.create(HORSE);
    expect((await db.horses.get(String(id)))?.name).toBe('Foal');
  });

  it('once the host has loaded, the tap fetches nothing', () => {
    const { staging, fetches } = loadingPage({ loaded: true });
    staging.fetch();
    expect(fetches()).toBe(0);
  });

  it('a fetch that failed is tried again by the next tap', async () => {
    const { staging, fetches } = loadingPage({ failFirstFetch: true });
    staging.fetch();
    staging.fetch(); // Still under way: not asked twice.
    await expect.poll(fetches).toBe(1);
    // Once the failure is handled, a tap asks again.
    await expect
      .poll(() => {
        staging.fetch();
        return fetches();
      })
      .toBe(2);
  });

  it('a load that failed when the form opened is tried again by the create', async () => {
    const { db, staging, loads } = loadingPage({ failFirstLoad: true });
    staging.prepare();
    await expect.poll(loads).toBe(1);
    const id = await staging.writes.horses.create(HORSE);
    expect(loads()).toBe(2);
    expect((await db.horses.get(String(id)))?.name).toBe('Foal');
  });
});
