import type { Context } from 'hono';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { DOC_NAME } from '../../../shared/index.ts';
import type { DocumentVersions } from '../sync/versions.ts';

const gzipAsync = promisify(gzip);

type Entry = {
  version: string;
  body: Uint8Array<ArrayBuffer>;
  /** Compressed once, on first demand, off the main thread (zlib's pool). */
  gzipped?: Promise<Uint8Array<ArrayBuffer>>;
};

/** Answers smaller than this are sent as they are: compressing them gains nothing. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Answers for the heavy reads (the whole horse list, the dashboard), kept until the
 * document changes (the dashboard: or the ledger). The version is the document's log
 * position as this instance knows it (its own commits and the other instances'
 * notifications), with the ledger's head for the dashboard, so a write through any
 * instance invalidates every instance's copy. The version is also the ETag, so a device
 * that has the answer gets a 304; clients that accept gzip get bytes compressed once.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Entry>>();

  constructor(
    private readonly versions: DocumentVersions,
    private readonly maxEntries = 32,
  ) {}

  /**
   * `compute`'s answer for `key`, computed again once the document changed — or, `withLedger`,
   * once the document or the ledger changed (an answer that reads sales, payments or corrections).
   */
  async respond(c: Context, key: string, compute: () => Promise<unknown>, withLedger = false): Promise<Response> {
    const document = String(await this.versions.current(DOC_NAME));
    const version = withLedger ? `${document}.${await this.versions.ledgerHead()}` : document;
    const etag = `W/"${version}-${hash(key)}"`;
    const headers: Record<string, string> = { etag, 'cache-control': 'private, no-cache', vary: 'accept-encoding' };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    const entry = await this.load(key, version, compute);
    headers['content-type'] = 'application/json';
    if (entry.body.byteLength >= COMPRESS_FROM_BYTES && acceptsGzip(c.req.header('accept-encoding'))) {
      entry.gzipped ??= gzipAsync(entry.body).then((bytes) => new Uint8Array(bytes));
      return c.body(await entry.gzipped, 200, { ...headers, 'content-encoding': 'gzip' });
    }
    return c.body(entry.body, 200, headers);
  }

  private async load(key: string, version: string, compute: () => Promise<unknown>): Promise<Entry> {
    const cached = this.entries.get(key);
    if (cached?.version === version) return cached;
    // Fifty clients asking at once share one computation.
    const flightKey = `${key}@${version}`;
    let flight = this.inFlight.get(flightKey);
    if (!flight) {
      // Encoded once: a 10,000-horse list is megabytes, and every answer reuses the bytes.
      flight = compute().then((value) => ({ version, body: encoder.encode(JSON.stringify(value)) }));
      this.inFlight.set(flightKey, flight);
      void flight.finally(() => this.inFlight.delete(flightKey)).catch(() => {});
    }
    const entry = await flight;
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}

const encoder = new TextEncoder();

/** True when the Accept-Encoding header allows gzip (q=0 refuses it). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') return false;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

function hash(text: string): string {
  let value = 0;
  for (let index = 0; index < text.length; index++) value = (Math.imul(31, value) + text.charCodeAt(index)) | 0;
  return (value >>> 0).toString(36);
}
