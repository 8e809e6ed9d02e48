import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/**
 * The backup file (docs/backups.md): gzip'd JSON lines, one object per line.
 *
 *   {"ranchBackup":1,"createdAt":…,"database":…,"migrations":[{version,name}],"tables":[…]}
 *   {"table":"users","columns":["id",…]}        a table's section, in restore order
 *   {"row":{…}}                                  its rows (Postgres' to_jsonb of the row)
 *   {"end":{"rows":{"users":3,…},"sha256":"…"}}  last: SHA-256 of every byte above it
 *
 * A file without its end line, or whose bytes do not hash to it, is refused whole.
 */
export const FORMAT_VERSION = 1;

export type BackupHeader = {
  ranchBackup: number;
  createdAt: string;
  database: string;
  migrations: { version: number; name: string }[];
  tables: string[];
};

export type BackupSection = { table: string; columns: string[] };

/** A file that is not a whole, intact backup this version can read. */
export class BackupFileError extends Error {}

/** Writes lines into `out` (a gzip stream), hashing them, with backpressure. */
export class BackupWriter {
  readonly #hash: Hash = createHash('sha256');
  readonly #rows: Record<string, number> = {};
  #table = '';

  constructor(private readonly out: Writable) {}

  header(header: BackupHeader): Promise<void> {
    return this.#line(JSON.stringify(header));
  }

  section(section: BackupSection): Promise<void> {
    this.#table = section.table;
    this.#rows[section.table] = 0;
    return this.#line(JSON.stringify(section));
  }

  /** `json`: the row as Postgres wrote it (to_jsonb(row)::text), passed on untouched. */
  row(json: string): Promise<void> {
    this.#rows[this.#table] = (this.#rows[this.#table] ?? 0) + 1;
    return this.#line(`{"row":${json}}`);
  }

  /** Writes the end line and ends `out`; resolves once everything is flushed. */
  async end(): Promise<Record<string, number>> {
    const end = JSON.stringify({ end: { rows: this.#rows, sha256: this.#hash.digest('hex') } });
    await new Promise<void>((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(`${end}\n`, () => resolve());
    });
    return this.#rows;
  }

  async #line(text: string): Promise<void> {
    const line = `${text}\n`;
    this.#hash.update(line);
    if (this.out.destroyed) throw new Error('The backup stream was closed');
    if (!this.out.write(line)) {
      await new Promise<void>((resolve, reject) => {
        const settle = (error?: Error) => {
          this.out.off('error', settle).off('close', closed).off('drain', drained);
          if (error) reject(error);
          else resolve();
        };
        const closed = () => settle(new Error('The backup stream was closed'));
        const drained = () => settle();
        this.out.once('error', settle).once('close', closed).once('drain', drained);
      });
    }
  }
}

export type BackupLine =
  | { kind: 'header'; header: BackupHeader }
  | { kind: 'section'; section: BackupSection }
  | { kind: 'row'; json: string }
  | { kind: 'end'; rows: Record<string, number> };

/**
 * Reads `path` line by line and checks it as it goes; the last line yielded is `end`, only
 * after the checksum and row counts matched. Throws BackupFileError for anything else, so a
 * reader must not commit what it read before it has seen `end`.
 */
export async function* readBackup(path: string): AsyncGenerator<BackupLine> {
  const hash = createHash('sha256');
  const rows: Record<string, number> = {};
  let table: string | undefined;
  let header: BackupHeader | undefined;
  let ended = false;
  for await (const text of gzipLines(path)) {
    if (ended) throw new BackupFileError(`${path} has data after its end line`);
    if (!header) {
      header = parseHeader(path, text);
      hash.update(`${text}\n`);
      yield { kind: 'header', header };
      continue;
    }
    if (text.startsWith('{"row":')) {
      if (table === undefined) throw new BackupFileError(`${path}: a row before any table`);
      rows[table] = (rows[table] ?? 0) + 1;
      hash.update(`${text}\n`);
      yield { kind: 'row', json: text.slice(7, -1) };
      continue;
    }
    const value = parseLine(path, text);
    if (typeof value.table === 'string' && Array.isArray(value.columns)) {
      table = value.table;
      rows[table] = 0;
      hash.update(`${text}\n`);
      yield { kind: 'section', section: { table: value.table, columns: value.columns as string[] } };
    } else if (value.end && typeof value.end === 'object') {
      const end = value.end as { rows?: Record<string, number>; sha256?: string };
      if (end.sha256 !== hash.digest('hex')) throw new BackupFileError(`${path} is damaged: its checksum does not match its contents`);
      if (JSON.stringify(end.rows) !== JSON.stringify(rows)) throw new BackupFileError(`${path} is damaged: its row counts do not match`);
      ended = true;
    } else {
      throw new BackupFileError(`${path}: unexpected line ${text.slice(0, 80)}`);
    }
  }
  if (!header) throw new BackupFileError(`${path} is empty`);
  if (!ended) throw new BackupFileError(`${path} is truncated: it has no end line (an interrupted backup?)`);
  yield { kind: 'end', rows };
}

/** The file's lines, gunzipped; a damaged or truncated gzip stream throws BackupFileError. */
async function* gzipLines(path: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const file = createReadStream(path);
  file.once('error', (error) => gunzip.destroy(error));
  file.pipe(gunzip);
  let pending: Buffer[] = [];
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      let from = 0;
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, from)) {
        pending.push(chunk.subarray(from, at));
        yield Buffer.concat(pending).toString('utf8');
        pending = [];
        from = at + 1;
      }
      if (from < chunk.length) pending.push(chunk.subarray(from));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BackupFileError(`${path} does not exist`);
    throw new BackupFileError(`${path} is not a whole Ranch backup: ${(error as Error).message}`);
  } finally {
    file.destroy();
    gunzip.destroy();
  }
  if (pending.length > 0) yield Buffer.concat(pending).toString('utf8');
}

function parseLine(path: string, text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {}
  throw new BackupFileError(`${path} is damaged: a line is not JSON`);
}

function parseHeader(path: string, text: string): BackupHeader {
  let value: Partial<BackupHeader> | undefined;
  try {
    value = JSON.parse(text) as Partial<BackupHeader>;
  } catch {}
  if (typeof value?.ranchBackup !== 'number') throw new BackupFileError(`${path} is not a Ranch backup`);
  if (value.ranchBackup > FORMAT_VERSION) {
    throw new BackupFileError(`${path} is a format ${value.ranchBackup} backup: made by a newer Ranch, which can restore it`);
  }
  return value as BackupHeader;
}

/** Reads the whole file and checks it; the header and row counts of an intact backup. */
export async function verifyBackup(path: string): Promise<{ header: BackupHeader; rows: Record<string, number> }> {
  let header: BackupHeader | undefined;
  for await (const line of readBackup(path)) {
    if (line.kind === 'header') header = line.header;
    if (line.kind === 'end' && header) return { header, rows: line.rows };
  }
  throw new BackupFileError(`${path} is truncated`);
}
