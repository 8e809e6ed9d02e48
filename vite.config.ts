import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Every module under shared/ (the path escaped for a RegExp). */
const SHARED_MODULES = new RegExp(`^${fromRoot('./shared/').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** The staging code (a create or edit made during a start): its imports are fetched together (below). */
const STAGING = /(^|\/)shown-before-load-[^/]*\.js$/;
/**
 * The steps before it (data/outbox/before-load.ts), by the module each imports: the
 * records' schemas, a module a task. The first step fetches every later step's chunks too.
 */
const STAGING_STEPS = ['./shared/schemas/care.ts', './shared/schemas/sale.ts', './shared/schemas/records.ts'].map(fromRoot);
/** The start's last step: every lazy chunk loads after it. */
const MAIN = fromRoot('./web/src/main.tsx');
/** The module zodFirst imports (web/src/lib/zod-first.ts): the staging's step before the first. */
const ZOD_FIRST = fromRoot('./web/src/lib/zod-chunk.ts');
/**
 * A module of nothing whose import fetches all of the staging's chunks, zodFirst's too, and
 * evaluates none (data/outbox/fetch-before-load.ts): a tap on Add Horse or Edit asks for it, so the
 * steps find their code in memory once the form is on screen.
 */
const STAGING_FETCH = fromRoot('./web/src/data/outbox/fetch-before-load.ts');
/** The horse dialog, which a first write or edit during a start waits for. */
const HORSE_DIALOG = fromRoot('./web/src/features/horses/HorseDialog.tsx');
/**
 * The modules its loader imports, a step a task (web/src/features/horses/load-horse-dialog.ts),
 * after zodFirst's.
 */
const HORSE_DIALOG_STEPS = ['./shared/schemas/common.ts', './shared/schemas/horse.ts', './web/src/ui/FormField.tsx'].map(fromRoot);
/**
 * A module of nothing whose import fetches the horse dialog's whole static graph (a link for
 * each chunk the importer has not loaded) and evaluates none of it
 * (web/src/features/horses/horse-dialog-fetch.ts): the dialog's loader asks for it first and
 * then evaluates the graph in steps. The browser otherwise found the dialog's imports only
 * once its chunk had arrived, and their imports once those had: three round trips to the
 * service worker, each slow while the data worker reads the stored document at a start.
 */
const HORSE_DIALOG_FETCH = fromRoot('./web/src/features/horses/horse-dialog-fetch.ts');

/**
 * Chunks V8 compiles whole when it first compiles them (its explicit compile hint,
 * `//# allFunctionsCalledOnLoad`, Chromium 136 and later): the horse dialog's and the forms'
 * library's (react-hook-form, with FormField). Their functions otherwise compile one by one
 * as the dialog first renders, a large part of that render in a tab whose code is cold; the
 * hint makes a first edit at the first row save sooner. In a page that ran them before, V8
 * has them compiled anyway.
 */
const COMPILED_WHOLE = [HORSE_DIALOG, '/node_modules/react-hook-form/'];
const compileHint = ({ moduleIds }: { moduleIds: string[] }) =>
  moduleIds.some((id) => COMPILED_WHOLE.some((module) => id.includes(module))) ? '//# allFunctionsCalledOnLoad' : '';

/**
 * The output's chunks by file name, kept as the bundle is written (chunkGraph below), so the
 * preload links can leave out what the importing chunk has already loaded.
 */
let outputChunks: Record<string, { type: string; imports?: string[]; facadeModuleId?: string | null }> = {};

/** Keeps the output's chunk graph, before Vite writes the preload links. */
const chunkGraph: Plugin = {
  name: 'ranch:chunk-graph',
  generateBundle: {
    order: 'pre',
    handler(_options, bundle) {
      outputChunks = bundle;
    },
  },
};

/** `from` and everything `next` leads to from it, at any depth. */
function reachable(from: string, next: (id: string) => readonly string[] | undefined): Set<string> {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const following of next(id) ?? []) visit(following);
  };
  visit(from);
  return seen;
}

/** A chunk and every chunk it imports statically, at any depth: all loaded before its code runs. */
function loadedWith(chunk: string): Set<string> {
  return reachable(chunk, (file) => outputChunks[file]?.imports);
}

/** The chunk a dynamic import of `moduleId` loads. */
function chunkImporting(moduleId: string): string | undefined {
  return Object.keys(outputChunks).find((file) => outputChunks[file]?.facadeModuleId === moduleId);
}

/** The chunks dynamic imports of `modules` load, and every chunk those import statically. */
function chunksOf(modules: string[]): string[] {
  return modules.map(chunkImporting).flatMap((chunk) => (chunk ? [...loadedWith(chunk)] : []));
}

/** The staging's steps' chunks from `modules`, the staging chunk's, and every chunk they import statically. */
function stagingChunks(modules: string[]): string[] {
  const staging = Object.keys(outputChunks).find((file) => STAGING.test(file));
  return [...chunksOf(modules), ...(staging ? loadedWith(staging) : [])];
}

/** The chunks a dynamic import of `file` links for preloading (none: the browser fetches a chunk's imports itself). */
function preloaded(file: string, deps: string[]): string[] {
  const facade = outputChunks[file]?.facadeModuleId ?? '';
  if (facade === STAGING_FETCH) return stagingChunks([ZOD_FIRST, ...STAGING_STEPS]);
  if (facade === HORSE_DIALOG_FETCH) return chunksOf([ZOD_FIRST, ...HORSE_DIALOG_STEPS, HORSE_DIALOG]);
  // The staging loads in steps, each evaluated in a task of its own
  // (data/outbox/before-load.ts); the first fetches the later ones' chunks too, so
  // none waits for the one before to be evaluated before its requests go out.
  if (facade === STAGING_STEPS[0]) return [...deps, ...stagingChunks(STAGING_STEPS.slice(1))];
  if (STAGING_STEPS.includes(facade) || STAGING.test(file)) return deps;
  return [];
}

/**
 * The app's own modules (web/src) that the page's last start step (main.tsx, web/src/entry.ts)
 * loads, no step before it does, and a chunk loaded later (a screen, a dialog) imports too:
 * kept by the plugin below once the module graph is built, and put in one chunk
 * (codeSplitting below).
 */
const sharedStartModules = new Set<string>();
const APP_MODULE = /[\\/]web[\\/]src[\\/]/;

type ModuleGraph = (id: string) => { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;

/** Every module `from` imports statically, at any depth (itself included). */
function staticGraph(getInfo: ModuleGraph, from: string): Set<string> {
  return reachable(from, (id) => getInfo(id)?.importedIds);
}

/**
 * Collects `sharedStartModules`. Rolldown puts each module shared by several chunks in a
 * chunk per set of importers: main.tsx's step loaded 36 scripts, most under 1 kB, and a start
 * that found them in the memory cache (a reload) fetched and compiled them in one main-thread
 * task of 40–130 ms on the phone bench (CPU 4×); as one chunk they are one fetch (docs/web.md
 * "The last step's app modules in one chunk").
 */
const sharedStartChunk: Plugin = {
  name: 'ranch:start-graph',
  buildEnd() {
    sharedStartModules.clear();
    const getInfo: ModuleGraph = (id) => this.getModuleInfo(id);
    const ids = [...this.getModuleIds()];
    const find = (suffix: string) => ids.find((id) => id.endsWith(suffix));
    const main = find('/web/src/main.tsx');
    if (!main) return;
    const steps = [find('/web/src/entry.ts'), find('/web/src/data/db.ts'), find('/react-dom/client.js'), main];
    const before = new Set<string>();
    for (const step of steps.slice(0, -1)) if (step) for (const id of staticGraph(getInfo, step)) before.add(id);
    // What the chunks loaded later load: every dynamic import's static graph.
    const later = new Set<string>();
    for (const id of ids) {
      for (const root of getInfo(id)?.dynamicallyImportedIds ?? []) {
        if (steps.includes(root) || later.has(root)) continue;
        for (const reached of staticGraph(getInfo, root)) later.add(reached);
      }
    }
    for (const id of staticGraph(getInfo, main)) {
      if (APP_MODULE.test(id) && !before.has(id) && later.has(id)) sharedStartModules.add(id);
    }
  },
};

/** The sync server (sync-server/) listens here in development; see package.json dev:server. */
const API_TARGET = 'http://127.0.0.1:8787';

export default defineConfig({
  root: fromRoot('./web'),
  publicDir: fromRoot('./public'),
  build: {
    outDir: fromRoot('./dist/web'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    // <link rel=modulepreload> for one lazy chunk's imports only. For every chunk, Vite's
    // helper appended one link per dependency, synchronously: 70–215 ms of main-thread
    // appendChild in a phone's start and first sync (CPU 4×; 12–14 ms without). Every chunk
    // is precached, so the browser fetching a chunk's imports itself is a local round trip;
    // but the staging code (a create during a start) has three levels of imports, fetched
    // while the data worker reads the stored document, when each took 0.1–0.3 s on the
    // phone bench: fetched together they arrive before Create is pressed (docs/performance.md).
    // Only the imports the importing chunk has not already loaded: a link for each of the
    // twenty was ~60 ms of the Add Horse tap on the phone, most of them for chunks in memory.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (file, deps, { hostId, hostType }) => {
        if (hostType !== 'js') return [];
        // What the importer loaded, and the start's last step (main.tsx), before which nothing lazy loads.
        const loaded = new Set([...loadedWith(hostId), ...loadedWith(chunkImporting(MAIN) ?? hostId)]);
        return [...new Set(preloaded(file, deps))].filter((dep) => !loaded.has(dep));
      },
    },
    rolldownOptions: {
      output: {
        // After minification, which would drop the comment.
        postBanner: compileHint,
        // zod in a chunk of its own, so a form's schemas are evaluated in a task after zod's
        // (web/src/lib/zod-first.ts); with shared/schemas/common.ts they were one chunk.
        codeSplitting: {
          groups: [
            { name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]/ },
            // The app's modules main.tsx's step shares with later chunks (sharedStartModules).
            // Their own imports stay where they are: each is in a step before, a library's or
            // shared/'s chunk, or in this group too (a module a later chunk reaches, it reaches
            // through), so this chunk never imports main.tsx's and no cycle forms.
            { name: 'start', test: (id) => sharedStartModules.has(id), includeDependenciesRecursively: false },
          ],
        },
      },
      treeshake: {
        // shared/ is imported through its index, which re-exports the zod schemas and the
        // document layout (Yjs). Its modules do nothing when evaluated but define what they
        // export, so a chunk gets only the modules it uses: the page's entry no longer
        // builds every schema, which cost ~150 ms of a phone's start (docs/web.md "A small entry").
        moduleSideEffects: [{ test: SHARED_MODULES, sideEffects: false }],
      },
    },
  },
  plugins: [
    chunkGraph,
    sharedStartChunk,
    // The router plugin must come before react() so it can split route components.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: fromRoot('./web/src/routes'),
      generatedRouteTree: fromRoot('./web/src/routeTree.gen.ts'),
    }),
    react(),
    tailwindcss(),
    VitePWA({
      // Our own service worker: the app keeps its own photo outbox, so generateSW's
      // runtime caching would only get in the way.
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      // Registered by web/src/lib/register-sw.ts with workbox-window, in production only.
      injectRegister: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
      },
      manifest: {
        name: 'Ranch',
        short_name: 'Ranch',
        description: 'Horse ranch management: inventory, suppliers, buyers, sales and payments, online or offline.',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        theme_color: '#7c4a1e',
        background_color: '#f6f2ec',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
  server: {
    proxy: {
      '/api': { target: API_TARGET, ws: true, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, ws: true, changeOrigin: false },
    },
  },
});
