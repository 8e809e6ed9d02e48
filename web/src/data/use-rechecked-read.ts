import Dexie, { type ObservabilitySet } from 'dexie';
import { useEffect, useRef, useState } from 'react';
import { useRanchData } from './context.tsx';
import type { PageData } from './page-data.ts';

/** After a change, a rechecked read runs again at most this often (a first sync writes many batches). */
export const RECHECK_MS = 500;

/**
 * The answer of `read` (a call into the data layer that reads whole tables where the
 * document is: what is due, the Dashboard's figures), read again after any change to
 * `tables`, at most every RECHECK_MS; undefined while the first read runs. Not a live
 * query: the page never reads the ranch's tens of thousands of rows itself (on a phone that
 * was half a second of its main thread), and a burst of writes (a first sync, another
 * device's busy morning) costs one read, not one per batch. `tables` must not change.
 */
export function useRecheckedRead<T>(read: (data: PageData) => Promise<T>, tables: readonly string[], what: string): T | undefined {
  const data = useRanchData();
  const { db } = data;
  const [answer, setAnswer] = useState<T>();
  const latest = useRef({ read, tables, what });
  latest.current = { read, tables, what };
  useEffect(() => {
    let stopped = false;
    let running = false;
    let again = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      if (timer === undefined) {
        timer = setTimeout(() => {
          timer = undefined;
          void run();
        }, RECHECK_MS);
      }
    };
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        const next = await latest.current.read(data);
        if (!stopped) setAnswer(next);
      } catch (error) {
        if (!stopped) console.error(`Reading ${latest.current.what} failed`, error);
      } finally {
        running = false;
        if (again && !stopped) {
          again = false;
          schedule();
        }
      }
    };
    const prefixes = latest.current.tables.map((table) => `idb://${db.name}/${table}/`);
    const onMutated = (parts: ObservabilitySet) => {
      if (Object.keys(parts).some((part) => prefixes.some((prefix) => part.startsWith(prefix)))) schedule();
    };
    Dexie.on.storagemutated.subscribe(onMutated);
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
      Dexie.on.storagemutated.unsubscribe(onMutated);
    };
  }, [data, db]);
  return answer;
}
