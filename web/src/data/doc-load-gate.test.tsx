// @vitest-environment jsdom
import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the gate for each test: it remembers, for the page's life, that rows have shown. */
async function freshGate() {
  vi.resetModules();
  return import('./doc-load-gate.ts');
}

/** Whether `promise` has settled once the pending timers (up to `ms`) have run. */
async function settledAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await vi.advanceTimersByTimeAsync(ms);
  return settled;
}

describe('when the data worker starts and the document loads (doc-load-gate.ts)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'requestAnimationFrame'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for a list screen to show its first rows, then a frame', async () => {
    const { afterFirstRowsShown, useFirstRowsShown } = await freshGate();
    const gate = afterFirstRowsShown(1500);
    function List({ rows }: { rows: string[] | undefined }) {
      useFirstRowsShown(rows);
      return null;
    }
    const view = render(<List rows={undefined} />);
    expect(await settledAfter(gate, 500)).toBe(false);
    view.rerender(<List rows={['Storm']} />);
    expect(await settledAfter(gate, 50)).toBe(true);
  });

  it('the Dashboard, whose content comes from the host, lets it start at its first commit', async () => {
    const { afterFirstRowsShown, useNothingToWaitFor } = await freshGate();
    const gate = afterFirstRowsShown(1500);
    function Dashboard() {
      useNothingToWaitFor();
      return null;
    }
    render(<Dashboard />);
    expect(await settledAfter(gate, 50)).toBe(true);
  });

  it('a screen that reports nothing lets it start after the timeout', async () => {
    const { afterFirstRowsShown } = await freshGate();
    const gate = afterFirstRowsShown(1500);
    expect(await settledAfter(gate, 1400)).toBe(false);
    expect(await settledAfter(gate, 200)).toBe(true);
  });

  it('a tab opened in the background, which draws no frames, still starts its worker', async () => {
    const { afterFirstRowsShown, markFirstRowsShown } = await freshGate();
    vi.stubGlobal('requestAnimationFrame', () => 0); // A hidden tab: the frame never comes.
    try {
      markFirstRowsShown();
      expect(await settledAfter(afterFirstRowsShown(1500), 1000)).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
