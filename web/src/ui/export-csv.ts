/** One CSV column: its header and the plain text of a row's cell. */
export type CsvColumn<Row> = { header: string; value: (row: Row) => string | number | null | undefined };

/** RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled. */
function field(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  // Spreadsheet apps run cells starting with = + - @ (or a tab or carriage return before one)
  // as formulas; a leading quote stops that. Only a plain number keeps its sign ('-5', '-12.50').
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<Row>(columns: CsvColumn<Row>[], rows: Row[]): string {
  const lines = [columns.map((column) => field(column.header)).join(',')];
  for (const row of rows) lines.push(columns.map((column) => field(column.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Saves the text as a file through a temporary link; works offline (no server involved). */
export function downloadCsv(filename: string, csv: string): void {
  // The byte order mark makes Excel read the file as UTF-8.
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** `horses-2024-05-01.csv` */
export function csvFilename(name: string, today: Date = new Date()): string {
  return `${name}-${today.toISOString().slice(0, 10)}.csv`;
}
