// The table of current figures in docs/performance.md and the README, written by a full
// `npm run bench` from its own rows: one run, one host, nothing carried over from another.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatTable, type Row } from './table.ts';

export const TABLE_START = '<!-- npm run bench writes the table below; edit the bench, not the table -->';
export const TABLE_END = '<!-- end of the table npm run bench writes -->';

/** What the header line says of the run. */
export type RunInfo = {
  /** UTC, to the minute: "2026-12-07 02:10". */
  at: string;
  /** The commit's short hash, with "and uncommitted changes" when the tree differed from it. */
  commit: string;
  /** The host's name (os.hostname()). */
  host: string;
  /** Cores, processor, memory, Node. */
  machine: string;
  database: string;
  /** The seeded ranch, as its rows count it. */
  ranch: string;
  /**
   * How the phone rows made a phone of the host: the page's rate and what the whole browser
   * was confined to, or "browser not confined: <why>" (web/bench/phone.ts).
   */
  phone: string;
};

/** Why a run may not write the table (undefined: it may). */
export function notWritten(
  rows: readonly Row[],
  settings: {
    /** Groups BENCH_ONLY left out. */
    left: readonly string[];
    quick: boolean;
    write: string | undefined;
    /** Run by a test (VITEST set): a test's run must never rewrite the repository's docs. */
    underTest?: boolean;
  },
): string | undefined {
  if (settings.write === '0') return 'BENCH_WRITE=0';
  if (settings.underTest) return 'run by a test';
  if (settings.left.length > 0) return `BENCH_ONLY left out ${settings.left.join(', ')}, and the table is one whole run`;
  if (settings.quick) return 'BENCH_QUICK=1 runs shorter rounds than the table states';
  const failed = rows.filter((row) => row.figure === 'FAILED').map((row) => row.group);
  if (failed.length > 0) return `these groups failed: ${failed.join(', ')}`;
  return undefined;
}

function header(run: RunInfo): string {
  return (
    `One \`npm run bench\` of ${run.at} UTC, commit ${run.commit}, on host \`${run.host}\`: ${run.machine}; ` +
    `${run.database}. The ranch: ${run.ranch}. The phone rows: ${run.phone}.`
  );
}

function summary(rows: readonly Row[]): string {
  const missed = rows.filter((row) => row.met === false).length;
  return `${rows.filter((row) => row.met !== undefined).length - missed} targets met, ${missed} missed.`;
}

const cell = (value: string | undefined) => (value ?? '').replaceAll('|', '\\|');

/** docs/performance.md's table: every column, every note. */
export function performanceTable(rows: readonly Row[], run: RunInfo): string {
  return [header(run), '', formatTable([...rows]), '', summary(rows)].join('\n');
}

/** The README's table: each figure with its reference, target and whether it was met. */
export function readmeTable(rows: readonly Row[], run: RunInfo): string {
  const lines = rows.map((row) => {
    const met = row.met === undefined ? '' : row.met ? 'met' : 'missed';
    return `| ${cell(`${row.group}: ${row.figure}`)} | ${cell(row.ours)} | ${cell(row.reference)} | ${cell(row.target)} | ${met} |`;
  });
  return [header(run), '', '| figure | ours | reference | target | met |', '|---|---|---|---|---|', ...lines, '', summary(rows)].join('\n');
}

/** `text` with what lies between the markers replaced by `content`; throws unless each marker is there once, in order. */
export function replaceTable(text: string, content: string, name: string): string {
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < 0 || end < start || text.indexOf(TABLE_START, start + 1) >= 0 || text.indexOf(TABLE_END, end + 1) >= 0) {
    throw new Error(`${name} needs the markers ${TABLE_START} and ${TABLE_END}, once each and in that order`);
  }
  return `${text.slice(0, start + TABLE_START.length)}\n${content}\n${text.slice(end)}`;
}

/**
 * Writes both tables. Both files are read and checked before either is written, so a file
 * without its markers leaves the other as it was too. Returns the paths written.
 */
export function writeTables(root: string, rows: readonly Row[], run: RunInfo): string[] {
  const targets = [
    { path: join(root, 'docs', 'performance.md'), table: performanceTable(rows, run) },
    { path: join(root, 'README.md'), table: readmeTable(rows, run) },
  ];
  const updated = targets.map(({ path, table }) => ({ path, text: replaceTable(readFileSync(path, 'utf8'), table, path) }));
  for (const { path, text } of updated) writeFileSync(path, text);
  return updated.map(({ path }) => path);
}

/** The commit the run measured: its short hash, and whether the tree had changes of its own. */
export function currentCommit(root: string): string {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  try {
    const hash = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') === '' ? hash : `${hash} and uncommitted changes`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
