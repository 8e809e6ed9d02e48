import type { CDPSession, Page } from 'playwright-core';

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
    const events = await traceEvents<TraceEvent>(cdp, ['devtools.timeline'], action);
    return events
      .filter((event) => event.name === 'UpdateLayoutTree' && event.args?.beginData?.frame === frameTree.frame.id)
      .map((event) => event.args?.elementCount ?? 0);
  } finally {
    await cdp.detach();
  }
}

/** The trace events of `categories` recorded through `cdp` while `action` ran (also web/bench/ab-dialogs.ts). */
export async function traceEvents<Event>(cdp: CDPSession, categories: string[], action: () => Promise<void>): Promise<Event[]> {
  const events: Event[] = [];
  const collect = ({ value }: { value: object[] }) => events.push(...(value as Event[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReportEvents' });
  try {
    await action();
  } finally {
    const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
  }
  return events;
}

/** Resolves after the page has rendered two more frames: what a change restyles is done by then. */
export function twoFrames(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}
