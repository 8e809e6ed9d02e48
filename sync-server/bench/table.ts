/** One figure of the benchmark table. */
export type Row = {
  group: string;
  figure: string;
  ours: string;
  reference?: string;
  /** ours / reference, as printed. */
  ratio?: string;
  target?: string;
  /** true met, false missed, undefined: no target. */
  met?: boolean;
  note?: string;
};

export const ms = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(1) : Math.round(value)} ms` : 'n/a');
export const kb = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
export const perSec = (value: number) => (Number.isFinite(value) ? `${Math.round(value)}/s` : 'n/a');
export const ratio = (ours: number, reference: number) => (Number.isFinite(ours / reference) ? `${(ours / reference).toFixed(2)}×` : 'n/a');

/** A plain-text table (also valid Markdown), every column padded. */
export function formatTable(rows: Row[]): string {
  const header = ['group', 'figure', 'ours', 'reference', 'ours/ref', 'target', 'met', 'note'];
  const cells = rows.map((row) => [
    row.group,
    row.figure,
    row.ours,
    row.reference ?? '',
    row.ratio ?? '',
    row.target ?? '',
    row.met === undefined ? '' : row.met ? 'met' : 'MISSED',
    row.note ?? '',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}
