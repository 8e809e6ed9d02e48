import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startAppServer, type AppServer } from './support/app-server.ts';
import { launchChromium } from './support/browser.ts';
import { startPhoneLink, type PhoneLink } from './support/phone-link.ts';
import { serviceWorkerInControl } from './support/session.ts';

/**
 * Issue 12, a small start script (docs/web.md "A small entry"): every start evaluates the
 * entry's steps (web/src/entry.ts: each awaited import() and what it imports statically)
 * before anything renders, so the document's code (Yjs), the zod schemas and the forms stay
 * out of them, and every chunk is precached for an offline start.
 */
describe('the start script', () => {
  let webDir: string;
  let server: AppServer;
  let link: PhoneLink;
  let browser: Browser;

  beforeAll(async () => {
    // A copy of the build (dist/web, or RANCH_WEB_DIR's): another build during the run must not change what is served.
    webDir = await mkdtemp(join(tmpdir(), 'ranch-start-script-'));
    await cp(process.env.RANCH_WEB_DIR ?? resolve(import.meta.dirname, '../../dist/web'), webDir, { recursive: true });
    server = await startAppServer({ RANCH_WEB_DIR: webDir });
    link = await startPhoneLink(server);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await server?.stop();
    if (webDir) await rm(webDir, { recursive: true, force: true });
  });

  /** The entry script's path in the build. */
  async function entryScript(): Promise<string> {
    const html = await readFile(join(webDir, 'index.html'), 'utf8');
    const entry = /<script type="module"[^>]* src="\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    if (!entry) throw new Error('index.html has no module script');
    return entry;
  }

  /** A script and the chunks it imports statically, all evaluated in one task (import() calls are not followed). */
  async function staticGraph(entry: string): Promise<Map<string, string>> {
    const scripts = new Map<string, string>();
    const visit = async (path: string) => {
      if (scripts.has(path)) return;
      const code = await readFile(join(webDir, path), 'utf8');
      scripts.set(path, code);
      for (const [, name] of code.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)) await visit(`assets/${name}`);
    };
    await visit(entry);
    return scripts;
  }

  /** The chunks the entry's own import() steps load, in order (entry.ts awaits each in turn). */
  async function entrySteps(entry: string): Promise<string[]> {
    const code = await readFile(join(webDir, entry), 'utf8');
    const steps = [...code.matchAll(/import\(\s*[`"']\.\/([^`"']+\.js)[`"']\s*\)/g)].map(([, name]) => `assets/${name}`);
    expect(steps.length, 'the entry loads the app in steps').toBeGreaterThanOrEqual(3);
    return steps;
  }

  /** What a start evaluates: the entry, its steps' chunks, and what each of those imports statically. */
  async function startGraph(entry: string): Promise<Map<string, string>> {
    const scripts = await staticGraph(entry);
    for (const step of await entrySteps(entry)) for (const [path, code] of await staticGraph(step)) scripts.set(path, code);
    return scripts;
  }

  it('carries no Yjs, zod or react-hook-form, nor do the first screens’ routes, and the service worker precaches every script', async () => {
    const assets = (await readdir(join(webDir, 'assets'))).filter((name) => name.endsWith('.js'));
    // The horse list is a phone's usual first screen, and the Dashboard (`/`, the `routes`
    // chunk) the first after signing in and behind the sign-in page: their route chunks are
    // evaluated during a start too.
    const horsesRoute = assets.find((name) => /^horses-[\w-]+\.js$/.test(name));
    const dashboardRoute = assets.find((name) => /^routes-[\w-]+\.js$/.test(name));
    expect(horsesRoute).toBeDefined();
    expect(dashboardRoute).toBeDefined();
    const entry = await entryScript();
    for (const start of [entry, `assets/${horsesRoute}`, `assets/${dashboardRoute}`]) {
      const scripts = start === entry ? await startGraph(entry) : await staticGraph(start);
      expect(scripts.size).toBeGreaterThan(1);
      const carrying = (signature: string) => [...scripts].filter(([, code]) => code.includes(signature)).map(([path]) => path);
      expect(carrying('Yjs was already imported'), `Yjs (and the document layer with it), from ${start}`).toEqual([]);
      expect(carrying('$ZodType'), `zod, from ${start}`).toEqual([]);
      expect(carrying('shouldUnregister'), `react-hook-form, from ${start}`).toEqual([]);
    }

    // The first visit's precache starts before the steps: the entry itself registers the worker.
    const [firstStep] = [...(await staticGraph(entry))].filter(([, code]) => /[`"']\/sw\.js[`"']/.test(code));
    expect(firstStep?.[0], 'the service worker registered by the entry, before its steps').toBeDefined();

    const sw = await readFile(join(webDir, 'sw.js'), 'utf8');
    expect(assets.filter((name) => !sw.includes(`"url":"assets/${name}"`))).toEqual([]);
  });

  it('loads the app shell’s own modules as one script, not a script per set of importers', async () => {
    // A start that finds the scripts in the memory cache (a reload) fetches and compiles a
    // step's whole static graph in one task: main.tsx's step was 36 scripts, most of them the
    // app's small modules each in a chunk of its own (Rolldown's chunk per set of importers),
    // one task of 40–130 ms on the phone bench (CPU 4×). vite.config.ts puts the app's modules
    // of that step in one chunk; what is left are libraries and shared/ modules.
    const entry = await entryScript();
    const loaded = new Set((await staticGraph(entry)).keys());
    const fresh: number[] = [];
    for (const step of await entrySteps(entry)) {
      const scripts = [...(await staticGraph(step)).keys()].filter((path) => !loaded.has(path));
      for (const path of scripts) loaded.add(path);
      fresh.push(scripts.length);
    }
    // The rest are libraries' chunks and shared/'s small modules, one chunk each (money,
    // receivables, dashboard, care, ids, …): shared/index.ts is in the earlier steps' module
    // graph, so the grouping above cannot tell which of them only this step uses.
    expect(Math.max(...fresh), `scripts new in each step: ${fresh.join(', ')}`).toBeLessThanOrEqual(20);
  });

  it('[O1] [O2] a shared worker that stops starting while the phone has no signal: the tab elects a host and runs its worker, from the precache', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    // Armed by the test: the worker's script no longer loads (a 404), as where module workers are broken.
    await phone.addInitScript(() => {
      if (localStorage.getItem('test.brokenWorker') !== '1') return;
      const Shared = window.SharedWorker;
      window.SharedWorker = class extends Shared {
        constructor(_url: string | URL, options?: string | WorkerOptions) {
          super('/assets/no-such-worker.js', options);
        }
      };
    });
    const page = await phone.newPage();
    const dataHost = () => page.evaluate(() => window.__ranch?.host).catch(() => null);
    await page.goto(link.url);
    await page.getByRole('button', { name: 'Sign In to Continue' }).click();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    expect(await dataHost()).toBe('shared');
    await serviceWorkerInControl(page);

    // The dedicated worker's script was never loaded: offline, only the precache has it.
    await link.setOffline(phone, true);
    await page.evaluate(() => localStorage.setItem('test.brokenWorker', '1'));
    await page.reload();
    // The shared worker's error reloads the tab once, with the host of the tab Web Locks elect.
    await expect.poll(dataHost, { timeout: 30_000 }).toBe('elected');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // The document loads from the device, in that worker.
    await page.evaluate(() => window.__ranch?.data.loaded);
    await page.getByRole('navigation', { name: 'Quick navigation' }).getByRole('link', { name: 'Horses' }).click();
    await page.getByRole('heading', { name: 'Horse Inventory' }).waitFor();
    await phone.close();
  });
});
