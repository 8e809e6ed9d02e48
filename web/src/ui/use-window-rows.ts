import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** Lists up to this long render every row; longer ones render the rows in view. */
export const WINDOW_FROM = 60;
/**
 * Pixels rendered above and below the viewport, so a flick of the wheel shows no gap: 4
 * table rows (~260 px), 2 phone cards. Every row rendered is work when a search brings new
 * rows into view: 8 table rows put the first keystroke at 16–24 ms on a desk, 4 at 15–16 ms;
 * 4 cards (880 px) doubled what a keystroke renders and lays out on a phone (docs/web.md).
 */
export const OVERSCAN_PX = 256;

export type RowWindow = { start: number; end: number };

/**
 * The rows of a list that fall inside the viewport (plus overscan), from where the list
 * starts relative to the viewport and the average row height. Pure, for the tests.
 */
export function visibleRows(input: {
  count: number;
  /** The list's top edge relative to the viewport's top (negative once scrolled past). */
  listTop: number;
  viewportHeight: number;
  rowHeight: number;
  /** Rows beyond each edge; by default OVERSCAN_PX worth of rows. */
  overscan?: number;
}): RowWindow {
  const { count, listTop, viewportHeight, rowHeight } = input;
  if (count === 0) return { start: 0, end: 0 };
  const height = Math.max(1, rowHeight);
  const overscan = input.overscan ?? Math.max(1, Math.ceil(OVERSCAN_PX / height));
  const first = Math.floor(Math.max(0, -listTop) / height);
  // The viewport's bottom edge measured from the list's top: a list that starts lower on
  // the screen (below a phone's stacked filters) shows fewer rows.
  const last = Math.ceil(Math.max(0, viewportHeight - listTop) / height);
  const start = Math.min(count - 1, Math.max(0, first - overscan));
  const end = Math.min(count, Math.max(start + 1, last + overscan));
  return { start, end };
}

/**
 * Windowing for a list of `count` uniform-ish rows inside whatever scrolls (the page or a
 * container): it listens to scroll events in the capture phase, so it needs to know
 * neither. `listRef` is the element holding the rows (tbody or ul); the average height of
 * the rendered rows is measured after each render, starting from `estimate`. Below
 * WINDOW_FROM rows every row renders and nothing is measured.
 */
export function useWindowRows(
  listRef: RefObject<HTMLElement | null>,
  count: number,
  estimate: number,
): RowWindow & { windowed: boolean; before: number; after: number; measure(rendered: number, height: number): void } {
  const windowed = count > WINDOW_FROM;
  const [rowHeight, setRowHeight] = useState(estimate);
  const [range, setRange] = useState<RowWindow>(() =>
    visibleRows({ count, listTop: 0, viewportHeight: typeof window === 'undefined' ? 800 : window.innerHeight, rowHeight: estimate }),
  );
  const heightRef = useRef(rowHeight);
  heightRef.current = rowHeight;

  const update = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    const next = visibleRows({
      count,
      listTop: list.getBoundingClientRect().top,
      viewportHeight: window.innerHeight,
      rowHeight: heightRef.current,
    });
    setRange((current) => (current.start === next.start && current.end === next.end ? current : next));
  }, [listRef, count]);

  // A passive effect, not a layout effect: reading the list's position in a layout effect
  // forced the style and layout of a freshly rendered list inside React's commit, one task
  // of up to ~350 ms for a phone's first rows (CPU 4×). After a data update React runs this
  // once the browser has laid the list out and painted it, in a task of its own; after a
  // keystroke (a discrete event) React runs it at the end of the commit, as before. Until
  // then the window is the one from the list's top, which is where a list first shows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a newly measured row height changes the window, so it is computed again
  useEffect(() => {
    if (!windowed) return;
    update();
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        update();
      });
    };
    window.addEventListener('scroll', onScroll, { capture: true, passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [windowed, update, rowHeight]);

  /** Called after a render with the rows rendered and their total height. */
  const measure = useCallback((rendered: number, height: number) => {
    if (rendered === 0 || height <= 0) return; // no layout (jsdom) or nothing shown
    const average = height / rendered;
    if (Math.abs(average - heightRef.current) > 0.5) setRowHeight(average);
  }, []);

  if (!windowed) return { start: 0, end: count, windowed, before: 0, after: 0, measure };
  // The range may be stale for a moment after the list shrank (a search narrowed it).
  const end = Math.min(range.end, count);
  const start = Math.min(range.start, Math.max(0, end - 1));
  return { start, end, windowed, before: start * rowHeight, after: Math.max(0, count - end) * rowHeight, measure };
}
