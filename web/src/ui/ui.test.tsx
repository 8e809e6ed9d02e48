// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useEffect } from 'react';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { DataTable } from './DataTable.tsx';
import { toCsv } from './export-csv.ts';
import { timeAgo } from './relative-time.ts';
import { TimeAgo } from './TimeAgo.tsx';
import { ToastProvider, useToast, type ToastInput } from './Toast.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

type Row = { id: string; name: string; phone: string | null };
const columns = [
  { header: 'Name', key: 'name' },
  { header: 'Phone', key: 'phone', cell: (row: Row) => row.phone ?? 'N/A' },
];

describe('DataTable', () => {
  it('[B1] shows 5 skeleton rows while loading, then the empty text (default or given)', () => {
    const { rerender } = render(<DataTable rows={undefined} columns={columns} />);
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    rerender(<DataTable rows={[]} columns={columns} />);
    expect(screen.getByText('No data available')).toBeTruthy();
    rerender(<DataTable rows={[]} columns={columns} emptyText="No buyers found" />);
    expect(screen.getByText('No buyers found')).toBeTruthy();
    rerender(<DataTable rows={[]} columns={columns} loading />);
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
  });

  it('[B1] renders cells and named row actions that call their handler with the row', () => {
    const onDelete = vi.fn();
    const rows: Row[] = [{ id: '1', name: 'Ann', phone: null }];
    render(
      <DataTable rows={rows} columns={columns} actions={[{ label: 'Delete', onClick: onDelete, destructive: true }]} label="People" />,
    );
    const table = screen.getByRole('table', { name: 'People' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Phone', 'Actions']);
    const row = within(table).getAllByRole('row')[1]!;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Ann', 'N/A', 'Delete']);
    fireEvent.click(within(row).getByRole('button', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledWith(rows[0]);
  });

  it('[B1] [B16] renders compact rows instead of a table on a phone, their actions behind "⋯"', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    try {
      render(
        <DataTable
          rows={[{ id: '1', name: 'Ann', phone: '555' }]}
          columns={columns}
          actions={[{ label: 'Edit', onClick: () => {} }]}
          label="People"
        />,
      );
      expect(screen.queryByRole('table')).toBeNull();
      const card = within(screen.getByRole('list', { name: 'People' })).getByRole('listitem');
      expect(card.textContent).toContain('Ann');
      // Line two: the facts, without the column headers.
      expect(within(card).getByText('555')).toBeTruthy();
      expect(within(card).queryByText('Phone')).toBeNull();
      expect(within(card).queryByRole('button', { name: 'Edit' })).toBeNull();
      const more = within(card).getByRole('button', { name: 'Actions for Ann' });
      fireEvent.click(more);
      expect(more.getAttribute('aria-expanded')).toBe('true');
      const menu = screen.getByRole('menu', { name: 'Ann' });
      expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Edit' }));
      fireEvent.keyDown(menu, { key: 'Escape' });
      expect(screen.queryByRole('menu')).toBeNull();
      expect(document.activeElement).toBe(more);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('DataTable on a phone', () => {
  it('[B16] a tap on the row does its main action; "⋯" holds the rest, destructive ones in quiet red', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }));
    try {
      const done: string[] = [];
      render(
        <DataTable
          rows={[{ id: '1', name: 'Ann', phone: '555' }]}
          columns={[
            { header: 'Name', key: 'name' },
            { header: 'Phone', key: 'phone', phone: 'none' },
          ]}
          actions={[
            { label: 'View Details', onClick: (row) => done.push(`view ${row.name}`), main: true },
            { label: 'Delete', onClick: (row) => done.push(`delete ${row.name}`), destructive: true },
          ]}
          label="People"
        />,
      );
      const row = within(screen.getByRole('list', { name: 'People' })).getByRole('listitem');
      expect(row.textContent).not.toContain('555');
      fireEvent.click(within(row).getByRole('button', { name: /^Ann.*View Details$/ }));
      expect(done).toEqual(['view Ann']);
      fireEvent.click(within(row).getByRole('button', { name: 'Actions for Ann' }));
      const items = within(screen.getByRole('menu', { name: 'Ann' })).getAllByRole('menuitem');
      expect(items.map((item) => item.textContent)).toEqual(['Delete']);
      expect(items[0]!.className).toContain('text-error');
      expect(items[0]!.className).not.toContain('btn-error');
      fireEvent.click(items[0]!);
      expect(done).toEqual(['view Ann', 'delete Ann']);
      expect(screen.queryByRole('menu')).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('ConfirmDialog', () => {
  it('[B2] is named by its title and reports the answer', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<ConfirmDialog open title="Are you sure you want to delete this horse?" onConfirm={onConfirm} onCancel={onCancel} />);
    const dialog = screen.getByRole('dialog', { name: 'Are you sure you want to delete this horse?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledOnce();
  });
});

function Shows({ toasts }: { toasts: ToastInput[] }) {
  const toast = useToast();
  useEffect(() => toasts.forEach(toast), [toast, toasts]);
  return null;
}

describe('toasts', () => {
  it('[B3] shows one at a time (the newest), for 5000 ms by default', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <Shows
          toasts={[
            { title: 'Success', description: 'Old' },
            { title: 'Error', description: 'Failed to delete buyer', variant: 'destructive' },
          ]}
        />
      </ToastProvider>,
    );
    const region = screen.getByRole('region', { name: /Notifications/ });
    expect(region.textContent).toContain('Failed to delete buyer');
    expect(region.textContent).not.toContain('Old');
    expect(within(region).getByRole('alert')).toBeTruthy();
    act(() => vi.advanceTimersByTime(4999));
    expect(region.textContent).toContain('Failed to delete buyer');
    act(() => vi.advanceTimersByTime(1));
    expect(region.textContent).toBe('');
  });

  it('[B3] F8 focuses the notification region; a swipe right of 50 px dismisses', () => {
    render(
      <ToastProvider>
        <Shows toasts={[{ title: 'Success', description: 'Buyer created successfully' }]} />
      </ToastProvider>,
    );
    const region = screen.getByRole('region', { name: /Notifications/ });
    fireEvent.keyDown(window, { key: 'F8' });
    expect(document.activeElement).toBe(region);
    const toast = within(region).getByRole('status');
    fireEvent.pointerDown(toast, { clientX: 100 });
    fireEvent.pointerUp(toast, { clientX: 140 });
    expect(region.textContent).toContain('Buyer created successfully');
    fireEvent.pointerDown(toast, { clientX: 100 });
    fireEvent.pointerUp(toast, { clientX: 150 });
    expect(region.textContent).toBe('');
  });
});

describe('CSV export', () => {
  it('[B5] no cell can start a formula: a sign before digits, a tab or a carriage return is defused too; plain numbers stay', () => {
    const cells = ['-1+HYPERLINK("https://x.example","open")', '+1-2', '@SUM(A1)', '\t=1+1', '\r=1+1', '-5', '-12.50', '5-1'];
    const csv = toCsv(
      [{ header: 'Notes', value: (r: { n: string }) => r.n }],
      cells.map((n) => ({ n })),
    );
    expect(csv.split('\r\n').slice(1, -1)).toEqual([
      '"\'-1+HYPERLINK(""https://x.example"",""open"")"',
      "'+1-2",
      "'@SUM(A1)",
      "'\t=1+1",
      '"\'\r=1+1"',
      '-5',
      '-12.50',
      '5-1',
    ]);
  });

  it('[B5] quotes what needs quoting and defuses formulas', () => {
    expect(toCsv([{ header: 'Name', value: (r: { n: string }) => r.n }], [{ n: 'Ann, "Bo"' }, { n: '=1+1' }, { n: '-5' }])).toBe(
      'Name\r\n"Ann, ""Bo"""\r\n\'=1+1\r\n-5\r\n',
    );
  });
});

describe('TimeAgo', () => {
  it('[O5] says how long ago, and gives the exact time as a tooltip only once a pointer comes over it (no locale format at start)', () => {
    const at = Date.UTC(2026, 10, 23, 9, 30);
    const formats = vi.spyOn(Date.prototype, 'toLocaleString');
    try {
      render(<TimeAgo at={at} now={at + 5 * 60_000} prefix="Synced " />);
      const text = screen.getByText(/^Synced /);
      expect(text.textContent).toBe(`Synced ${timeAgo(at, at + 5 * 60_000)}`);
      expect(text.getAttribute('title')).toBeNull();
      expect(formats).not.toHaveBeenCalled();
      fireEvent.pointerEnter(text);
      expect(text.getAttribute('title')).toBe(new Date(at).toLocaleString());
    } finally {
      formats.mockRestore();
    }
  });

  it('shows neither "NaN days ago" nor an "Invalid Date" tooltip for a time that is not one', () => {
    const now = Date.UTC(2026, 10, 23, 9, 30);
    for (const at of [Date.parse('not a date'), Number.POSITIVE_INFINITY]) {
      const { unmount } = render(<TimeAgo at={at} now={now} prefix="Seen " />);
      const text = screen.getByText(/^Seen/);
      fireEvent.pointerEnter(text);
      expect(text.textContent).toBe('Seen ');
      expect(text.getAttribute('title')).toBeNull();
      unmount();
    }
  });
});
