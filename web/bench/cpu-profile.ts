// A CPU profile of the page's main thread over part of a bench run (BENCH_PROFILE=<file>):
// written as a .cpuprofile (open it in Chromium's DevTools, Performance panel) and
// summarised in the log as the functions with the most self time.
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; hitCount?: number };
export type Profile = { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[]; startTime: number; endTime: number };

/** Runs `run` with the sampling profiler on, then writes and summarises what the main thread did. */
export async function profileMainThread<T>(page: Page, file: string, log: (line: string) => void, run: () => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    writeFileSync(file, JSON.stringify(profile));
    for (const line of summarise(profile)) log(`  profile: ${line}`);
    log(`  profile: written to ${file}`);
    await cdp.detach();
  }
}

/** The top functions by self time (µs from the samples' time deltas), idle and GC apart. */
export function summarise(profile: Profile, top = 25): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const node = byId.get(samples[i]!);
    if (!node) continue;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const where = url ? `${url.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0));
  }
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  const busy = [...self].filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(program)'));
  const busyTotal = busy.reduce((sum, [, us]) => sum + us, 0);
  return [
    `${Math.round(total / 1000)} ms sampled, ${Math.round(busyTotal / 1000)} ms busy (not idle or program)`,
    ...busy
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([key, us]) => `${String(Math.round(us / 1000)).padStart(6)} ms  ${key}`),
  ];
}
