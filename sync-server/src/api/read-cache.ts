import type { Context } from 'hono';
import type { Sql } from '../db/client.ts';
import { DOC_NAME } from '../../../shared/index.ts';

/**
 * Answers for the heavy reads (the whole horse list, the dashboard), kept until the
 * document changes. The version is the log's last sequence number, read from Postgres, so
 * a write through any server instance invalidates every instance's copy. The version is
 * also the ETag, so a device that has the answer gets a 304.
 */
export class ReadCache {
  private readonly entries = new Map<string, { version: string; body: Uint8Array<ArrayBuffer> }>();
  private readonly inFlight = new Map<string, Promise<{ version: string; body: Uint8Array<ArrayBuffer> }>>();

  constructor(
    private readonly sql: Sql,
    private readonly maxEntries = 32,
  ) {}

  async respond(c: Context, key: string, compute: () => Promise<unknown>): Promise<Response> {
    const [row] = await this.sql<{ last_seq: string }[]>`select last_seq from docs where name = ${DOC_NAME}`;
    const version = row?.last_seq ?? '0';
    const etag = `W/"${version}-${hash(key)}"`;
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, { etag });
    const entry = await this.load(key, version, compute);
    return c.body(entry.body, 200, { 'content-type': 'application/json', etag, 'cache-control': 'private, no-cache' });
  }

  private async load(key: string, version: string, compute: () => Promise<unknown>) {
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

function hash(text: string): string {
  let value = 0;
  for (let index = 0; index < text.length; index++) value = (Math.imul(31, value) + text.charCodeAt(index)) | 0;
  return (value >>> 0).toString(36);
}
