import type { TestDatabase } from '../test/support/databases.ts';
import postgres from 'postgres';
import { performance } from 'node:perf_hooks';
import { median, percentile, sleep, type Target } from './clients.ts';
import { runLoad, sessionCookie, startHeldLoad, startOurServer, startReferenceServer, type Child } from './processes.ts';
import { kb, ms, perSec, ratio, type Row } from './table.ts';

type FanoutResult = {
  connectMs: number;
  burstMs: number;
  burstPerSec: number;
  pacedP50: number;
  pacedP99: number;
  missing: number;
  error: string | null;
};

export type FanoutOptions = {
  observers: number[];
  rounds: number;
  burst: number;
  rate: number;
  pacedSeconds: number;
  idleConnections: number;
};

/**
 * Sync fan-out and idle connections, ours against @y/websocket-server: both servers run at
 * once, each in its own process, and the load (another process) alternates between them
 * round by round, so drift on this shared machine hits both alike.
 */
export async function fanoutBench(database: TestDatabase, options: FanoutOptions, log: (line: string) => void): Promise<Row[]> {
  const ours = await startOurServer(database);
  const reference = await startReferenceServer();
  const rows: Row[] = [];
  try {
    const targets: Record<'ours' | 'reference', Target> = {
      ours: { kind: 'ours', url: ours.url, cookie: await sessionCookie(ours.url) },
      reference: { kind: 'reference', url: reference.url, cookie: '' },
    };
    for (const observers of options.observers) {
      const results: Record<'ours' | 'reference', FanoutResult[]> = { ours: [], reference: [] };
      for (let round = 0; round < options.rounds; round++) {
        const order = round % 2 === 0 ? (['ours', 'reference'] as const) : (['reference', 'ours'] as const);
        for (const kind of order) {
          const input = { ...targets[kind], observers, burst: options.burst, rate: options.rate, pacedSeconds: options.pacedSeconds };
          const result = await runLoad<FanoutResult>('fanout-load.ts', input, 150_000);
          if (result.error) log(`  ${kind}, ${observers} observers: ${result.error}`);
          log(
            `  fan-out ${observers} observers, round ${round + 1}, ${kind}: burst ${perSec(result.burstPerSec)}, paced p50 ${ms(result.pacedP50)} p99 ${ms(result.pacedP99)}`,
          );
          results[kind].push(result);
        }
      }
      const pick = (kind: 'ours' | 'reference', key: 'burstPerSec' | 'pacedP50' | 'pacedP99') => median(results[kind].map((r) => r[key]));
      const burst = { ours: pick('ours', 'burstPerSec'), reference: pick('reference', 'burstPerSec') };
      rows.push({
        group: 'sync fan-out',
        figure: `burst, ${observers} observers (edits/s to all)`,
        ours: perSec(burst.ours),
        reference: perSec(burst.reference),
        ratio: ratio(burst.ours, burst.reference),
        target: '≥ 0.8× ref',
        met: burst.ours / burst.reference >= 0.8,
      });
      for (const key of ['pacedP50', 'pacedP99'] as const) {
        const value = { ours: pick('ours', key), reference: pick('reference', key) };
        rows.push({
          group: 'sync fan-out',
          figure: `${options.rate}/s paced ${key === 'pacedP50' ? 'p50' : 'p99'}, ${observers} observers`,
          ours: ms(value.ours),
          reference: ms(value.reference),
          ratio: ratio(value.ours, value.reference),
          // ≥ 0.8× the reference's speed is ≤ 1.25× its latency.
          target: '≤ 1.25× ref',
          met: value.ours / value.reference <= 1.25,
          note: `median of ${options.rounds} rounds; ours durable before broadcast`,
        });
      }
    }
    if ('url' in database.options) {
      const floor = await commitFloor(database.options.url);
      log(`  durable commit floor: p50 ${ms(floor.p50)} p99 ${ms(floor.p99)}`);
      rows.push({
        group: 'sync fan-out',
        figure: 'floor: one-row INSERT, committed (no sync, no projection)',
        ours: `${ms(floor.p50)} / ${ms(floor.p99)}`,
        note: 'p50 / p99 of 300, same database; a durable broadcast waits at least this',
      });
    }
    const idle = {
      ours: await idleMemory(ours, targets.ours, options.idleConnections),
      reference: await idleMemory(reference, targets.reference, options.idleConnections),
    };
    rows.push({
      group: 'memory',
      figure: `server memory per idle connection (${options.idleConnections})`,
      ours: kb(idle.ours),
      reference: kb(idle.reference),
      ratio: ratio(idle.ours, idle.reference),
      note: 'RSS growth / connections',
    });
  } finally {
    await ours.stop();
    await reference.stop();
  }
  return rows;
}

/** What one durable commit costs on this machine: the least a durable broadcast waits. */
async function commitFloor(url: string): Promise<{ p50: number; p99: number }> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`create table bench_commit_probe (n int)`;
    const times: number[] = [];
    for (let n = 0; n < 300; n++) {
      const start = performance.now();
      await sql`insert into bench_commit_probe values (${n})`;
      times.push(performance.now() - start);
    }
    await sql`drop table bench_commit_probe`;
    return { p50: percentile(times, 50), p99: percentile(times, 99) };
  } finally {
    await sql.end();
  }
}

async function idleMemory(server: Child, target: Target, connections: number): Promise<number> {
  await sleep(1000);
  const before = server.rss();
  const load = await startHeldLoad('idle-load.ts', { ...target, connections }, 60_000);
  await sleep(1500);
  const after = server.rss();
  await load.stop();
  return (after - before) / connections;
}
