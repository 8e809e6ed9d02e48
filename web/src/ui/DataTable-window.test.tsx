// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { DataTable } from './DataTable.tsx';
import { CARD_WINDOW_FROM, OVERSCAN_PX, visibleRows, WINDOW_FROM } from './use-window-rows.ts';

type Row = { id: string; name: string };
const columns = [{ header: 'Name', key: 'name' }];
const many = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: String(i), name: `Horse ${i}` }));

/** The boxes' observers: a browser reports a box when observing starts and when its size changes. */
const observers = new Set<() => void>();
/** As a browser does once a box has a new size: every observer reports (in act, as React would see it). */
const boxesResized = () => act(() => observers.forEach((report) => report()));

/**
 * jsdom has no layout: every row is `height` px tall, and the list starts `top()` px from the
 * viewport's top. jsdom has no ResizeObserver either: this one reports each box when it
 * starts observing, and when the test says the boxes changed size.
 */
function fakeLayout(height: number, top: () => number, { reportOnObserve = true } = {}) {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(private readonly report: () => void) {}
      observe() {
        observers.add(this.report);
        if (reportOnObserve) this.report();
      }
      disconnect() {
        observers.delete(this.report);
      }
    },
  );
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    const list = this.closest('tbody, ul');
    const items = list ? [...list.querySelectorAll<HTMLElement>(':scope > [data-row], :scope > li')] : [];
    const index = items.indexOf(this);
    const y =
      index >= 0
        ? top() + (Number(this.getAttribute('aria-rowindex') ?? this.getAttribute('aria-posinset') ?? index + 1) - 1) * height
        : top();
    return { top: y, bottom: y + height, left: 0, right: 0, width: 0, height, x: 0, y, toJSON: () => ({}) } as DOMRect;
  });
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('visibleRows', () => {
  it('covers the viewport plus overscan, clamped to the list', () => {
    expect(visibleRows({ count: 10_000, listTop: 0, viewportHeight: 800, rowHeight: 50, overscan: 5 })).toEqual({ start: 0, end: 21 });
    // A list that starts 600 px down (a phone's stacked filters) has 200 px in view: 4 rows.
    expect(visibleRows({ count: 10_000, listTop: 600, viewportHeight: 800, rowHeight: 50, overscan: 5 })).toEqual({ start: 0, end: 9 });
    expect(visibleRows({ count: 10_000, listTop: 900, viewportHeight: 800, rowHeight: 50, overscan: 5 })).toEqual({ start: 0, end: 5 });
    expect(visibleRows({ count: 10_000, listTop: -5000, viewportHeight: 800, rowHeight: 50, overscan: 5 })).toEqual({
      start: 95,
      end: 121,
    });
    expect(visibleRows({ count: 110, listTop: -5000, viewportHeight: 800, rowHeight: 50, overscan: 5 })).toEqual({ start: 95, end: 110 });
    expect(visibleRows({ count: 0, listTop: 0, viewportHeight: 800, rowHeight: 50 })).toEqual({ start: 0, end: 0 });
  });

  it('renders about the same height beyond the viewport whatever the row height: 4 table rows, 2 phone cards', () => {
    expect(visibleRows({ count: 10_000, listTop: 0, viewportHeight: 640, rowHeight: 64 })).toEqual({ start: 0, end: 14 });
    expect(visibleRows({ count: 10_000, listTop: 0, viewportHeight: 660, rowHeight: 220 })).toEqual({ start: 0, end: 5 });
    expect(visibleRows({ count: 10_000, listTop: -2200, viewportHeight: 660, rowHeight: 220 })).toEqual({ start: 8, end: 15 });
  });
});

describe('DataTable windowing', () => {
  it('renders every row of a short list', () => {
    render(<DataTable rows={many(WINDOW_FROM)} columns={columns} label="Horses" />);
    expect(within(screen.getByRole('table', { name: 'Horses' })).getAllByRole('row')).toHaveLength(WINDOW_FROM + 1);
    expect(screen.queryByTestId('row-spacer')).toBeNull();
  });

  it('[B1] renders only the rows in view of a long table, as real rows, and follows the scroll', () => {
    let top = 0;
    fakeLayout(40, () => top);
    vi.stubGlobal('innerHeight', 800);
    render(<DataTable rows={many(10_000)} columns={columns} actions={[{ label: 'Edit', onClick: () => {} }]} label="Horses" />);
    const table = screen.getByRole('table', { name: 'Horses' });
    expect(table.getAttribute('aria-rowcount')).toBe('10001');
    const rows = () => within(table).getAllByRole('row').slice(1);
    expect(rows().length).toBeGreaterThan(10);
    expect(rows().length).toBeLessThan(60);
    expect(within(rows()[0]!).getByRole('cell', { name: 'Horse 0' })).toBeTruthy();
    expect(within(rows()[0]!).getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByText('Horse 9999')).toBeNull();

    // Scrolled 200,000 px down: row 5000 is at the top of the viewport.
    top = -200_000;
    act(() => {
      fireEvent.scroll(window);
    });
    return vi.waitFor(() => {
      expect(screen.getByText('Horse 5000')).toBeTruthy();
      expect(screen.queryByText('Horse 0')).toBeNull();
      expect(rows().length).toBeLessThan(60);
      const spacers = screen.getAllByTestId('row-spacer');
      expect(spacers).toHaveLength(2);
      expect(spacers[0]!.getAttribute('aria-hidden')).toBe('true');
      expect(rows()[0]!.getAttribute('aria-rowindex')).toBe(String(Number(rows()[0]!.textContent!.replace(/\D/g, '')) + 2));
    });
  });

  it('[B1] windows the cards on a phone', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    fakeLayout(200, () => 0);
    vi.stubGlobal('innerHeight', 844);
    render(<DataTable rows={many(5_000)} columns={columns} actions={[{ label: 'Delete', onClick: () => {} }]} label="Horses" />);
    const cards = within(screen.getByRole('list', { name: 'Horses' })).getAllByRole('listitem');
    expect(cards.length).toBeLessThan(30);
    expect(cards[0]!.getAttribute('aria-setsize')).toBe('5000');
    // [B16] A compact row's actions are behind its "⋯".
    expect(within(cards[0]!).getByRole('button', { name: 'Actions for Horse 0' })).toBeTruthy();
  });

  it("a phone's first cards are those in view; the cards beyond follow once the list is measured", () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    // A browser reports a box after the frame that laid it out, not when observing starts.
    fakeLayout(65, () => 0, { reportOnObserve: false });
    vi.stubGlobal('innerHeight', 844);
    render(<DataTable rows={many(5_000)} columns={columns} label="Horses" />);
    const names = () =>
      within(screen.getByRole('list', { name: 'Horses' }))
        .getAllByRole('listitem')
        .map((card) => card.textContent);
    // 844 px hold thirteen compact rows of 65 px: the first frame styles and lays out those alone.
    const horses = (count: number) => Array.from({ length: count }, (_, i) => `Horse ${i}`);
    expect(names()).toEqual(horses(13));
    boxesResized();
    // Then OVERSCAN_PX worth of rows below, ready before a flick can reach them.
    expect(names()).toEqual(horses(13 + Math.ceil(OVERSCAN_PX / 65)));
  });

  it("[B1] a phone's cards take a search's rows in place, and each acts on the row it shows", () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    fakeLayout(65, () => 0);
    vi.stubGlobal('innerHeight', 844);
    const deleted: string[] = [];
    const actions = [{ label: 'Delete', onClick: (row: Row) => deleted.push(row.name) }];
    const cards = () => within(screen.getByRole('list', { name: 'Horses' })).getAllByRole('listitem');
    const { rerender } = render(<DataTable rows={many(5_000)} columns={columns} actions={actions} label="Horses" />);
    const before = cards();
    // A search keeps every tenth horse, none of those shown: the same cards (elements) show the matches.
    const matches = many(5_000).filter((_, i) => i % 10 === 5);
    rerender(<DataTable rows={matches} columns={columns} actions={actions} label="Horses" />);
    const after = cards();
    expect(after[0]).toBe(before[0]);
    expect(after.map((card) => card.textContent)).toEqual(matches.slice(0, after.length).map((row) => `${row.name}Actions for`));
    expect(after[1]!.getAttribute('aria-setsize')).toBe('500');
    fireEvent.click(within(after[1]!).getByRole('button', { name: 'Actions for Horse 15' }));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(deleted).toEqual(['Horse 15']);
  });

  it("[B1] windows a phone's cards from more than CARD_WINDOW_FROM, a short list whole", () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    fakeLayout(220, () => 0);
    vi.stubGlobal('innerHeight', 844);
    const cards = () => within(screen.getByRole('list', { name: 'Horses' })).getAllByRole('listitem');
    // A search that keeps a few dozen of the first rows (a phone's screen shows four cards).
    const { rerender } = render(<DataTable rows={many(45)} columns={columns} label="Horses" />);
    expect(cards().length).toBeLessThanOrEqual(CARD_WINDOW_FROM);
    expect(cards()[0]!.getAttribute('aria-setsize')).toBe('45');
    rerender(<DataTable rows={many(CARD_WINDOW_FROM)} columns={columns} label="Horses" />);
    expect(cards()).toHaveLength(CARD_WINDOW_FROM);
    expect(cards()[0]!.getAttribute('aria-setsize')).toBeNull();
  });

  it('a list that shrinks while scrolled far down still shows its rows', () => {
    let top = -200_000;
    fakeLayout(40, () => top);
    vi.stubGlobal('innerHeight', 800);
    const { rerender } = render(<DataTable rows={many(10_000)} columns={columns} label="Horses" />);
    expect(screen.getByText('Horse 5000')).toBeTruthy();
    top = 0;
    rerender(<DataTable rows={many(200)} columns={columns} label="Horses" />);
    boxesResized();
    expect(screen.getByText('Horse 0')).toBeTruthy();
  });
});
