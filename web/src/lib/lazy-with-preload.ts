import { createElement, lazy, useState, type ComponentType } from 'react';

export type Preloadable<P extends object> = ComponentType<P> & {
  /** Loads the module ahead of need (once); the component then renders without suspending. */
  preload(): Promise<void>;
  /** Loads the module now, for someone waiting: the same load as `preload` (once; one under way is waited for). */
  load(): Promise<void>;
};

/**
 * React's `lazy` with a `preload`. A lazy component suspends on its first render even when its
 * module has already arrived, and React shows what a suspended boundary holds only on a retry
 * of lower priority than the screen's own updates: on a phone during a start, the Add Horse
 * dialog appeared well after its module had loaded. Once `preload` has
 * resolved, this renders the loaded component itself, in the render that asked for it.
 * (react-lazy-with-preload does the same; its last release predates React 19 and builds on
 * `forwardRef`, which React 19 no longer needs; this is the few lines we use of it.)
 */
export function lazyWithPreload<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  // One load, whoever asks first: a tap during a preload waits for the preload's steps, whose
  // modules are on their way already (features/horses/load-horse-dialog.ts).
  const start = (): Promise<ComponentType<P>> => {
    if (loaded) return Promise.resolve(loaded); // Preloaded: nothing to load again.
    loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // The next preload or load tries again (React's lazy keeps a failure it has seen, and a
        // render through it shows that error to the nearest error boundary).
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  // The type chosen at mount is kept: a lazy that has mounted already shows the loaded
  // component, and changing the type would mount the dialog afresh (losing what was typed).
  // biome-ignore lint/correctness/noComponentHookFactories: a factory called once per module, at its top level, as React's own lazy is.
  const Component = (props: P) => {
    const [type] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(type, props);
  };
  const settled = () => start().then(() => undefined);
  return Object.assign(Component, { load: settled, preload: settled });
}
