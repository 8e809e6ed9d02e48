import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Row } from '../bench/table.ts';
import {
  currentCommit,
  notWritten,
  performanceTable,
  readmeTable,
  replaceTable,
  type RunInfo,
  TABLE_END,
  TABLE_START,
  writeTables,
} from '../bench/write-tables.ts';

const ROOT = join(import.meta.dirname, '..', '..');

const RUN: RunInfo = {
  at: '2026-12-07 02:10',
  commit: 'abc1234',
  host: 'bench-host',
  machine: '2 cores (Test CPU), 8 GiB, Node v20.0.0',
  database: 'PostgreSQL 15.20 at 127.0.0.1:5432',
  ranch: '10 horses',
  phone: 'page throttled to CPU 3.9×, mid-tier; browser not confined: no cgroup v1 cpu controller at /sys/fs/cgroup/cpu',
};

const ROWS: Row[] = [
  {
    group: 'sync fan-out',
    figure: 'burst, 20 observers',
    ours: '1500/s',
    reference: '1480/s',
    ratio: '1.01×',
    target: '≥ 0.8× ref',
    met: true,
  },
  {
    group: 'REST',
    figure: 'GET /api/horses p99',
    ours: '774 ms',
    reference: '370 ms',
    target: '< 50 ms',
    met: false,
    note: 'a | in a note',
  },
  { group: 'memory', figure: 'per idle connection', ours: '2.0 KiB' },
];

const page = (table: string) => `# Title\n\nBefore.\n\n${TABLE_START}\n${table}\n${TABLE_END}\n\nAfter.\n`;

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

function scratchRoot(performance: string, readme: string): string {
  scratch = mkdtempSync(join(tmpdir(), 'bench-tables-'));
  mkdirSync(join(scratch, 'docs'));
  writeFileSync(join(scratch, 'docs', 'performance.md'), performance);
  writeFileSync(join(scratch, 'README.md'), readme);
  return scratch;
}

describe('the table npm run bench writes', () => {
  it('names the run, the commit, the host and the phone above its rows, and counts the targets', () => {
    const table = performanceTable(ROWS, RUN);
    expect(table.split('\n')[0]).toBe(
      'One `npm run bench` of 2026-12-07 02:10 UTC, commit abc1234, on host `bench-host`: 2 cores (Test CPU), 8 GiB, Node v20.0.0; PostgreSQL 15.20 at 127.0.0.1:5432. The ranch: 10 horses. ' +
        'The phone rows: page throttled to CPU 3.9×, mid-tier; browser not confined: no cgroup v1 cpu controller at /sys/fs/cgroup/cpu.',
    );
    expect(table).toContain('| sync fan-out');
    expect(table).toMatch(/\| GET \/api\/horses p99\s+\| 774 ms\s+\| 370 ms/);
    expect(table).toContain('MISSED');
    expect(table.trimEnd().endsWith('1 targets met, 1 missed.')).toBe(true);
  });

  it('gives the README each figure with its reference, target and met, a pipe in a cell escaped', () => {
    const table = readmeTable(ROWS, RUN);
    expect(table).toContain('| REST: GET /api/horses p99 | 774 ms | 370 ms | < 50 ms | missed |');
    expect(table).toContain('| memory: per idle connection | 2.0 KiB |  |  |  |');
    expect(table).not.toContain('a | in a note'); // the README has no notes
    expect(readmeTable([{ group: 'a|b', figure: 'c', ours: '1' }], RUN)).toContain('| a\\|b: c | 1 |');
  });

  it('replaces only what lies between the markers', () => {
    const replaced = replaceTable(page('old table'), 'new table', 'page');
    expect(replaced).toBe(`# Title\n\nBefore.\n\n${TABLE_START}\nnew table\n${TABLE_END}\n\nAfter.\n`);
    expect(replaceTable(replaced, 'new table', 'page')).toBe(replaced);
  });

  it('refuses a page whose markers are missing, repeated or out of order', () => {
    expect(() => replaceTable('# no markers', 't', 'README.md')).toThrow(/README.md needs the markers/);
    expect(() => replaceTable(`${TABLE_START}\n${TABLE_END}\n${TABLE_START}\n${TABLE_END}`, 't', 'x')).toThrow(/once each/);
    expect(() => replaceTable(`${TABLE_END}\n${TABLE_START}`, 't', 'x')).toThrow(/in that order/);
  });

  it('writes both files from one run', () => {
    const root = scratchRoot(page('old figures'), page('old figures'));
    expect(writeTables(root, ROWS, RUN)).toEqual([join(root, 'docs', 'performance.md'), join(root, 'README.md')]);
    const performance = readFileSync(join(root, 'docs', 'performance.md'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(performance).toContain(performanceTable(ROWS, RUN));
    expect(readme).toContain(readmeTable(ROWS, RUN));
    for (const text of [performance, readme]) {
      expect(text).not.toContain('old figures');
      expect(text.startsWith('# Title\n\nBefore.')).toBe(true);
      expect(text.endsWith('\n\nAfter.\n')).toBe(true);
    }
  });

  it('writes neither file when one has lost its markers', () => {
    const root = scratchRoot(page('old figures'), '# README without markers\n');
    expect(() => writeTables(root, ROWS, RUN)).toThrow(/README.md needs the markers/);
    expect(readFileSync(join(root, 'docs', 'performance.md'), 'utf8')).toBe(page('old figures'));
  });

  it('is written only by a whole run whose groups all ran', () => {
    const whole = { left: [], quick: false, write: undefined };
    expect(notWritten(ROWS, whole)).toBeUndefined();
    expect(notWritten(ROWS, { ...whole, left: ['phone', 'flood'] })).toMatch(/left out phone, flood/);
    expect(notWritten(ROWS, { ...whole, quick: true })).toMatch(/BENCH_QUICK/);
    expect(notWritten(ROWS, { ...whole, write: '0' })).toBe('BENCH_WRITE=0');
    expect(notWritten(ROWS, { ...whole, underTest: true })).toBe('run by a test');
    expect(notWritten([...ROWS, { group: 'ranch', figure: 'FAILED', ours: 'n/a' }], whole)).toMatch(/failed: ranch/);
  });

  it('names the commit measured, or says it cannot', () => {
    expect(currentCommit(ROOT)).toMatch(/^[0-9a-f]{7,}( and uncommitted changes)?$/);
    const outside = mkdtempSync(join(tmpdir(), 'bench-no-git-'));
    try {
      expect(currentCommit(outside)).toBe('unknown (not a git checkout)');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('finds its markers in the repository, so a run can write its table', () => {
    for (const path of [join(ROOT, 'docs', 'performance.md'), join(ROOT, 'README.md')]) {
      const text = readFileSync(path, 'utf8');
      expect(() => replaceTable(text, 'table', path)).not.toThrow();
    }
  });
});
