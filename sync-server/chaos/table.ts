import type { RunResult } from './run.ts';

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const seconds = (ms: number | null) => (ms === null ? '–' : `${(ms / 1000).toFixed(2)} s`);

/**
 * The one table of `npm run chaos` (markdown, as the README shows it): faults injected by
 * kind with their recovery times (fault healed → a new write of every device acknowledged),
 * then the writes acknowledged and lost over all runs.
 */
export function table(results: RunResult[]): string {
  const kinds = new Map<string, number[]>();
  let unrecovered = 0;
  for (const fault of results.flatMap((result) => result.faults)) {
    if (fault.recoveryMs === null) unrecovered++;
    else kinds.set(fault.kind, [...(kinds.get(fault.kind) ?? []), fault.recoveryMs]);
  }
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [row(['fault', 'injected', 'recovery p50', 'recovery p99']), row(['---', '---:', '---:', '---:'])];
  const all: number[] = [];
  for (const [kind, times] of [...kinds].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = times.sort((a, b) => a - b);
    all.push(...sorted);
    lines.push(row([kind, String(sorted.length), seconds(percentile(sorted, 50)), seconds(percentile(sorted, 99))]));
  }
  all.sort((a, b) => a - b);
  const total = all.length + unrecovered;
  lines.push(row(['**all faults**', String(total), seconds(percentile(all, 50)), seconds(percentile(all, 99))]));
  const sum = (pick: (result: RunResult) => number) => results.reduce((n, result) => n + pick(result), 0);
  const byKind = (kind: string) => results.filter((result) => result.kind === kind).length;
  lines.push(
    '',
    row(['runs', 'PGlite / Postgres', 'writes made', 'writes acknowledged', 'writes lost', 'runs with violations']),
    row(['---:', '---:', '---:', '---:', '---:', '---:']),
    row([
      String(results.length),
      `${byKind('pglite')} / ${byKind('postgres')}`,
      String(sum((result) => result.writes)),
      String(sum((result) => result.acknowledged)),
      String(sum((result) => result.lost)),
      String(results.filter((result) => result.violations.length > 0).length),
    ]),
  );
  if (unrecovered > 0) lines.push('', `${unrecovered} fault(s) did not recover (see the violations).`);
  return lines.join('\n');
}
