import type { Page } from 'playwright-core';

type TraceEvent = { name: string; args?: { elementCount?: number; beginData?: { frame?: string } } };

/**
 * Chromium's style recalculations in the page's own frame while `action` ran, each as the
 * number of elements it restyled (the trace's UpdateLayoutTree events). Counts, not times,
 * so a busy machine does not move them.
 */
export async function restyles(page: Page, action: () => Promise<void>): Promise<number[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline'] }, transferMode: 'ReportEvents' });
    try {
      await action();
    } finally {
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await complete;
    }
    return events
      .filter((event) => event.name === 'UpdateLayoutTree' && event.args?.beginData?.frame === frameTree.frame.id)
      .map((event) => event.args?.elementCount ?? 0);
  } finally {
    await cdp.detach();
  }
}

/** Resolves after the page has rendered two more frames: what a change restyles is done by then. */
export function twoFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}
