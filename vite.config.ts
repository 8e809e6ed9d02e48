import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Every module under shared/ (the path escaped for a RegExp). */
const SHARED_MODULES = new RegExp(`^${fromRoot('./shared/').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** The horse dialog: its first render is most of an Add Horse or Edit tap. */
const HORSE_DIALOG = fromRoot('./web/src/features/horses/HorseDialog.tsx');
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
    // No <link rel=modulepreload> for a lazy chunk's imports (Vite's own option): its helper
    // appends one link per dependency on the main thread before each dynamic import, which
    // was 70–215 ms of a phone's start and first sync (CPU 4×). Every chunk is precached, so
    // the browser fetching a chunk's imports itself is a local round trip.
    modulePreload: false,
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
