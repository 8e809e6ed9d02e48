/** A tiny observable value for useSyncExternalStore; snapshots are replaced, never mutated. */
export type Store<T> = {
  get(): T;
  set(patch: Partial<T>): void;
  subscribe(listener: () => void): () => void;
};

export function createStore<T extends object>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(patch) {
      const next = { ...state, ...patch };
      if (Object.keys(patch).every((key) => Object.is(next[key as keyof T], state[key as keyof T]))) return;
      state = next;
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
