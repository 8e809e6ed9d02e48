// The page's JavaScript heap at the end of a start (BENCH_HEAP=1, or a file for a heap
// snapshot of the first start): what a navigation leaves for the next garbage collection to
// free, and what a start keeps alive (docs/performance.md "Tools for a closer look"). A collection is
// forced to read what is live, which changes what the next start collects: off by default.
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

export type HeapFigures = { used: number; live: number };

const MiB = 1024 * 1024;
export const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/** The heap in use now, nothing collected. */
export async function heapInUse(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  } finally {
    await cdp.detach();
  }
}

/** The heap in use now, and what is left after a full collection. */
export async function heapFigures(page: Page): Promise<HeapFigures> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const before = await cdp.send('Runtime.getHeapUsage');
    await cdp.send('HeapProfiler.collectGarbage');
    const after = await cdp.send('Runtime.getHeapUsage');
    return { used: before.usedSize, live: after.usedSize };
  } finally {
    await cdp.detach();
  }
}

/** A heap snapshot of the page (open it in DevTools' Memory panel). */
export async function writeHeapSnapshot(page: Page, file: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const out = createWriteStream(file);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => out.write(chunk));
  try {
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    await cdp.detach();
  }
}

type SamplingNode = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: SamplingNode[] };

/**
 * Runs `run` with V8's sampling heap profiler on, collected objects included (BENCH_ALLOC=<file>):
 * what a start allocates, by function, written as a .heapprofile (DevTools' Memory panel) and
 * the functions allocating most summarised in the log.
 */
export async function sampleAllocations<T>(page: Page, file: string, log: (line: string) => void, run: () => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  try {
    return await run();
  } finally {
    const { profile } = (await cdp.send('HeapProfiler.stopSampling')) as unknown as { profile: { head: SamplingNode } };
    await cdp.detach();
    await writeFile(file, JSON.stringify(profile));
    const bySelf = new Map<string, number>();
    let total = 0;
    const visit = (node: SamplingNode) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const key = `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
      bySelf.set(key, (bySelf.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
      for (const child of node.children) visit(child);
    };
    visit(profile.head);
    log(`  allocations: ${mib(total)} sampled, written to ${file}`);
    for (const [key, size] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 25)) log(`  allocations: ${mib(size).padStart(9)} ${key}`);
  }
}
