// How fast this host makes and frees a heap like a start's, unthrottled: what the CPU index
// (cpu-index.ts) does not say. On 2026-11-29 the page scored before each run about as on the
// slower days (1,500–2,600 unthrottled) while its garbage collections, sweeps and IndexedDB
// reads took several times longer than in the sessions before: the kernel's share of the CPU
// was 26–50% (memory handed out and back), which a loop of arithmetic and short strings on a
// fresh page barely touches
// (docs/performance.md "The host and the phone"). The phone rows' longest tasks are most
// often the collector's, so the log gives this beside the CPU index.
import { performance } from 'node:perf_hooks';
import type { CDPSession, Page } from 'playwright-core';
import { median } from '../../sync-server/bench/clients.ts';

/**
 * Runs in the page: 10,000 rows of a dozen fields (about a horse list's size) and 2,000
 * elements of five children (a screen's worth of DOM), built three times over, the first two
 * dropped: the garbage of two lists and their screens, as a start after a start leaves.
 * Source text for the reason cpu-index.ts gives.
 */
const MAKE_IN_PAGE = `() => {
  const build = (round) => {
    const rows = [];
    for (let i = 0; i < 10000; i++) {
      rows.push({ id: 'horse-' + round + '-' + i, name: 'Horse ' + i, breedId: 'b' + (i % 20), colorId: 'c' + (i % 12),
        genderId: 'g' + (i % 3), statusId: 's' + (i % 4), ownerId: i % 5 ? 'o' + (i % 300) : null, birthdate: '2015-04-0' + (i % 9 + 1),
        ageYears: i % 30, priceUsd: i * 10, photoUrl: null, notes: 'notes of ' + i });
    }
    const screen = document.createElement('div');
    for (let i = 0; i < 2000; i++) {
      const row = document.createElement('div');
      for (let j = 0; j < 5; j++) row.appendChild(document.createElement('span')).textContent = rows[i].name;
      screen.appendChild(row);
    }
    return { rows, screen };
  };
  for (let round = 0; round < 3; round++) window.__collectorIndex = build(round);
}`;

export type CollectorIndex = { made: number; collected: number };

/**
 * The median of three rounds, unthrottled: ms to make the heap above, and ms for a full
 * collection of it (DevTools' "collect garbage": V8's and Blink's heaps, marked and swept),
 * with what is kept released first so the whole of it is garbage.
 */
export async function collectorIndex(page: Page, cdp: CDPSession): Promise<CollectorIndex> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const made: number[] = [];
  const collected: number[] = [];
  for (let round = 0; round < 3; round++) {
    await cdp.send('HeapProfiler.collectGarbage');
    let began = performance.now();
    await page.evaluate(`(${MAKE_IN_PAGE})()`);
    made.push(performance.now() - began);
    await page.evaluate('delete window.__collectorIndex');
    began = performance.now();
    await cdp.send('HeapProfiler.collectGarbage');
    collected.push(performance.now() - began);
  }
  return { made: median(made), collected: median(collected) };
}
