import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { MESSAGE_ACCESS, MESSAGE_EPOCH, MESSAGE_ACK, newId } from '../../shared/index.ts';
import { connect, percentile, sleep, until, type Target } from './clients.ts';
import { ROOT, type Child } from './processes.ts';
import { kb, ms, type Row } from './table.ts';

const VIEWER = { email: 'flood-viewer@ranch.test', password: 'flood viewer password' };

export type FloodOptions = { edits: number; sockets: number; perTick: number };

type FloodStats = { sent: number; opened: number; closes: Record<string, number> };

/**
 * Issue 10: a signed-in Viewer floods the sync socket with whole-document requests and never
 * reads, while the server holds the ranch. Measured: how long an honest device's edit takes to
 * reach another device, without and with the flood, and the server's memory meanwhile. The
 * server runs with the production limits (docs/sync-limits.md).
 */
export async function floodBench(server: Child, ours: Target, options: FloodOptions, log: (line: string) => void): Promise<Row[]> {
  const viewerCookie = await viewerSession(server.url, ours.cookie);
  const writer = connect(ours, new Y.Doc(), { ack: '1' });
  writer.provider.messageHandlers[MESSAGE_ACK] = () => {};
  writer.provider.messageHandlers[MESSAGE_EPOCH] = () => {}; // the epoch: one document here, never rebuilt
  writer.provider.messageHandlers[MESSAGE_ACCESS] = (_encoder, decoder) => void decoding.readVarUint(decoder);
  const observer = connect(ours);
  await Promise.all([writer.synced, observer.synced]);
  const horses = writer.doc.getMap<Y.Map<unknown>>('horses');
  const horseId = [...horses.keys()][0]!;
  const seen = () => observer.doc.getMap<Y.Map<unknown>>('horses').get(horseId)?.get('notes');

  /** Each edit waits for the one before to arrive: the time from the writer's edit to the observer's copy. */
  const propagation = async (label: string) => {
    const times: number[] = [];
    for (let i = 0; i < options.edits; i++) {
      const note = `${label} ${i} ${newId()}`;
      const start = performance.now();
      horses.get(horseId)!.set('notes', note);
      await until(() => seen() === note, 30_000, `edit ${i} to arrive (${label})`);
      times.push(performance.now() - start);
      await sleep(20);
    }
    return times;
  };

  const rssBefore = server.rss();
  const calm = await propagation('calm');
  log(`  honest edit to another device, no flood: p50 ${ms(percentile(calm, 50))}, p99 ${ms(percentile(calm, 99))}`);

  const flooder = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'sync-server/bench/flood-load.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      BENCH_INPUT: JSON.stringify({ url: server.url, cookie: viewerCookie, sockets: options.sockets, perTick: options.perTick }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  flooder.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  flooder.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rss())), 100);
  let flooded: number[] = [];
  let stats: FloodStats = { sent: 0, opened: 0, closes: {} };
  try {
    await until(() => output.includes('ready'), 30_000, 'the flood to start');
    await sleep(2000);
    flooded = await propagation('flood');
    const exited = new Promise((done) => flooder.once('exit', done));
    flooder.kill('SIGTERM');
    await exited;
    stats = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as FloodStats;
  } finally {
    clearInterval(sampler);
    if (flooder.exitCode === null) flooder.kill('SIGKILL');
    writer.destroy();
    observer.destroy();
  }
  await sleep(5000);
  const rssAfter = server.rss();
  const closes = Object.entries(stats.closes)
    .map(([code, count]) => `${count}× ${code}`)
    .join(', ');
  log(`  with the flood: p50 ${ms(percentile(flooded, 50))}, p99 ${ms(percentile(flooded, 99))}, max ${ms(Math.max(...flooded))}`);
  log(
    `  flooder: ${stats.sent} step-1 requests on ${stats.opened} sockets; closed ${closes || 'never'}; server RSS ${kb(rssBefore)} → peak ${kb(peak)} → ${kb(rssAfter)} 5 s after`,
  );
  const worst = Math.max(...flooded);
  return [
    {
      group: 'flood',
      figure: `honest edit reaches another device, no flood (${options.edits} edits)`,
      ours: `p50 ${ms(percentile(calm, 50))}, p99 ${ms(percentile(calm, 99))}`,
      note: 'one horse field, writer → server → observer, loopback',
    },
    {
      group: 'flood',
      figure: `the same while a Viewer floods whole-document requests, never reading`,
      ours: `p50 ${ms(percentile(flooded, 50))}, p99 ${ms(percentile(flooded, 99))}`,
      target: '< 1 s',
      met: worst < 1000,
      note: `max ${ms(worst)}; ${stats.sent} requests on ${stats.opened} sockets (closed: ${closes || 'never'})`,
    },
    {
      group: 'flood',
      figure: 'server memory during the flood (RSS)',
      ours: `${kb(rssBefore)} → peak ${kb(peak)}`,
      note: `${kb(rssAfter)} 5 s after it stopped`,
    },
  ];
}

/** Creates the Viewer (once) and signs in as it. */
async function viewerSession(url: string, adminCookie: string): Promise<string> {
  await fetch(`${url}/api/users`, {
    method: 'POST',
    headers: { cookie: adminCookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ ...VIEWER, firstName: 'Flood', lastName: 'Viewer', role: 'Viewer' }),
  });
  const response = await fetch(`${url}/api/login`, { method: 'POST', body: new URLSearchParams(VIEWER), redirect: 'manual' });
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!cookie) throw new Error(`Viewer sign-in failed: ${response.status}`);
  return cookie;
}
