import { useEffect, useRef, useState, type RefObject } from 'react';

/** Lists up to this long render every row; longer ones render the rows in view. */
export const WINDOW_FROM = 60;
/**
 * A phone's compact rows are windowed sooner: a phone restyles and lays out a search key's
 * rows on a slower processor, and 60 rows of a dozen elements each would all be in that
 * task. Longer than 8, a list renders its screenful and the overscan.
 */
export const CARD_WINDOW_FROM = 8;
/**
 * Pixels rendered above and below the viewport, so a flick of the wheel shows no gap: 4
 * table rows (~260 px), 2 phone cards. Every row rendered is work when a search brings new
 * rows into view, so the overscan is kept small: 4 cards (880 px) would double what a
 * keystroke renders and lays out on a phone.
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

/** Where the list is against the viewport, and whether that was read or only assumed. */
type Place = { listTop: number; viewportHeight: number; measured: boolean };

/**
 * FIRST_WINDOW: the rows of `place`, with overscan only once the list's place has been read.
 * A list's first rows render in the task that shows them, and a phone makes, styles and
 * lays out ~40 elements per horse card there: the two overscan cards would be a third of
 * that frame's cards. The overscan follows a frame later, when the list's box is measured,
 * before anyone can scroll to it.
 */
function windowAt({ measured, ...place }: Place, count: number, rowHeight: number): RowWindow {
  return visibleRows({ count, rowHeight, ...place, ...(measured ? {} : { overscan: 0 }) });
}

/** The average height of the rendered rows, first top to last bottom plus one gap. */
function renderedHeight(list: HTMLElement | null, selector: string): [number, number] {
  const items = list ? list.querySelectorAll<HTMLElement>(selector) : [];
  if (items.length === 0) return [0, 0];
  const first = items[0]!.getBoundingClientRect();
  const last = items[items.length - 1]!.getBoundingClientRect();
  const gap = items.length > 1 ? Math.max(0, items[1]!.getBoundingClientRect().top - first.bottom) : 0;
  return [items.length, last.bottom - first.top + gap];
}

/**
 * What the rows are measured by: the box that holds the list and its spacers, and a selector
 * for the rendered rows inside the list; and from how many rows the list is windowed
 * (WINDOW_FROM unless told).
 */
export type RowMeasure = { box: RefObject<HTMLElement | null>; rows: string; windowFrom?: number };

/**
 * Windowing for a list of `count` uniform-ish rows inside whatever scrolls (the page or a
 * container): it listens to scroll events in the capture phase, so it needs to know
 * neither. `listRef` is the element holding the rows (tbody or ul); the average height of
 * the rendered rows starts from `estimate` and is measured, with the list's place, when
 * `measureBy.box` changes size. Up to `measureBy.windowFrom` rows (WINDOW_FROM) every row
 * renders and nothing is measured.
 */
export function useWindowRows(
  listRef: RefObject<HTMLElement | null>,
  count: number,
  estimate: number,
  measureBy: RowMeasure,
): RowWindow & { windowed: boolean; before: number; after: number } {
  const windowed = count > (measureBy.windowFrom ?? WINDOW_FROM);
  const [rowHeight, setRowHeight] = useState(estimate);
  // Where the list is against the viewport. Until it is read, the window is the one from the
  // list's top, which is where a list first shows, and without overscan (FIRST_WINDOW).
  const [place, setPlace] = useState<Place>(() => ({
    listTop: 0,
    viewportHeight: typeof window === 'undefined' ? 800 : window.innerHeight,
    measured: false,
  }));
  // What the handlers below compare a new place with: the list as last rendered.
  const latest = useRef({ count, rowHeight });
  latest.current = { count, rowHeight };

  // The list's place is read after the browser has laid the frame out (a ResizeObserver, when
  // the box holding the rows changes size) or after a scroll or a resize, never when only
  // the list's length changed: that moves nothing, and reading it then forced a layout inside
  // the render's task (a passive effect after a keystroke runs in the key's task), a large
  // part of each search keystroke. A place that changes no row keeps the old one, so a
  // scroll within the rows in view renders nothing. The rows' height is measured with it:
  // the box's height is the spacers' (the rows out of view, at the current average) plus the
  // rendered rows', so it changes when the list's length changes or when the rendered rows
  // are not as tall as the average says: the one time a new measurement can differ.
  const { box, rows } = measureBy;
  useEffect(() => {
    const list = listRef.current;
    const target = box.current;
    if (!windowed || !list || !target) return;
    const follow = () => {
      const next = { listTop: list.getBoundingClientRect().top, viewportHeight: window.innerHeight, measured: true };
      setPlace((current) => {
        const { count: length, rowHeight: height } = latest.current;
        const was = windowAt(current, length, height);
        const now = windowAt(next, length, height);
        // Kept when nothing shown changes, unless it was only assumed: once read, the place
        // says so, and the overscan holds from then on.
        return current.measured && was.start === now.start && was.end === now.end ? current : next;
      });
    };
    let frame = 0;
    const onScroll = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        follow();
      });
    };
    window.addEventListener('scroll', onScroll, { capture: true, passive: true });
    window.addEventListener('resize', onScroll);
    // No ResizeObserver (jsdom): the place is read once, and the estimate stays.
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            follow();
            const [rendered, height] = renderedHeight(list, rows);
            if (rendered === 0 || height <= 0) return; // nothing shown
            const average = height / rendered;
            if (Math.abs(average - latest.current.rowHeight) > 0.5) setRowHeight(average);
          });
    // The border box: a list of cards keeps its spacers in its padding.
    if (observer) observer.observe(target, { box: 'border-box' });
    else follow();
    return () => {
      window.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
      if (frame) cancelAnimationFrame(frame);
      observer?.disconnect();
    };
  }, [windowed, box, listRef, rows]);

  if (!windowed) return { start: 0, end: count, windowed, before: 0, after: 0 };
  const { start, end } = windowAt(place, count, rowHeight);
  return { start, end, windowed, before: start * rowHeight, after: Math.max(0, count - end) * rowHeight };
}
