import * as Y from 'yjs';
import type { TestDatabaseKind } from '../test/support/databases.ts';
import { ADMIN } from '../test/support/server.ts';
import { signIn } from '../test/support/client.ts';
import { prepareGround } from './cluster.ts';
import { appDevice, stockDevice, writeOne, type ChaosDevice } from './devices.ts';
import { FAULTS, Violation, type Live, type Random } from './nemesis.ts';
import { finalVerdict, missingAfterRestart, sample } from './oracle.ts';
import { startChaosProxy } from './proxy.ts';

/** mulberry32: the seed decides the database, the faults, their timing and every write's pace. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type RunResult = {
  seed: number;
  kind: TestDatabaseKind;
  /** Each fault injected, and how long after it was healed every device had a new write acknowledged. */
  faults: { kind: string; recoveryMs: number | null }[];
  writes: number;
  acknowledged: number;
  lost: number;
  violations: string[];
  notes: string[];
  seconds: number;
};

/** `faults`: only the fault kinds whose names contain one of these (all when empty). */
export type RunOptions = { kinds: TestDatabaseKind[]; faultSeconds: number; devices: number; faults?: string[] };

const RECOVERY_LIMIT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until every device has a write made after the heal acknowledged: the recovery time. */
async function recovery(devices: ChaosDevice[], healedAt: number, fault: string): Promise<number> {
  const after = devices.map((device) => device.localClock());
  while (!devices.every((device, index) => device.ackedClock() > after[index]!)) {
    if (Date.now() - healedAt > RECOVERY_LIMIT_MS) {
      const stuck = devices.filter((device, index) => device.ackedClock() <= after[index]!).map((device) => device.name);
      throw new Violation(
        `no new write acknowledged on ${stuck.join(', ')} within ${RECOVERY_LIMIT_MS / 1000} s after "${fault}" was healed`,
      );
    }
    await sleep(10);
  }
  return Date.now() - healedAt;
}

/**
 * One run: a fresh database, one server, `devices` devices (one of them the app's data layer)
 * writing through proxies, faults for `faultSeconds`, then the oracle.
 */
export async function chaosRun(seed: number, options: RunOptions): Promise<RunResult> {
  const random = seeded(seed);
  const started = Date.now();
  const kind = options.kinds[Math.floor(random() * options.kinds.length)]!;
  const result: RunResult = { seed, kind, faults: [], writes: 0, acknowledged: 0, lost: 0, violations: [], notes: [], seconds: 0 };
  const ground = await prepareGround(kind, true);
  const devices: ChaosDevice[] = [];
  const proxies: Awaited<ReturnType<typeof startChaosProxy>>[] = [];
  let writing = true;
  const writers: Promise<void>[] = [];
  let live: Live | undefined;
  try {
    // A first start that fails breaks the same promise as a restart that does: this run's
    // violation, never the end of the command (the other runs and the table still count).
    const primary = await ground.start().catch((error: unknown) => {
      throw new Violation(`the plain start command did not start the server: ${String(error).slice(0, 600)}`);
    });
    const port = Number(new URL(primary.url).port);
    const { cookie } = await signIn(primary.url, ADMIN.email, ADMIN.password);
    for (let index = 0; index < options.devices; index++) {
      const proxy = await startChaosProxy(port);
      proxies.push(proxy);
      const url = `http://127.0.0.1:${proxy.port}`;
      devices.push(index === 0 ? appDevice('app', url, cookie, new Y.Doc()) : stockDevice(`device ${index}`, url, cookie));
    }
    const pace = seeded(seed ^ 0x5eed);
    for (const device of devices) {
      writers.push(
        (async () => {
          while (writing) {
            writeOne(device, pace);
            await sleep(60 + Math.floor(pace() * 140));
          }
        })(),
      );
    }
    live = {
      ground,
      primary,
      devices,
      proxies,
      cookie,
      notes: result.notes,
      complaints: result.violations,
      async probe(server, acknowledged, waitMs = 0) {
        const until = Date.now() + waitMs;
        let missing = await missingAfterRestart(server, cookie, acknowledged);
        while (missing.length > 0 && Date.now() < until) {
          await sleep(100);
          missing = await missingAfterRestart(server, cookie, missing);
        }
        if (missing.length > 0) {
          result.lost += missing.length;
          throw new Violation(
            `${missing.length} of ${acknowledged.length} acknowledged writes missing right after a restart: ${sample(missing)}`,
          );
        }
      },
    };
    const faults = FAULTS.filter(
      (fault) => fault.applies(ground) && (!options.faults?.length || options.faults.some((name) => fault.kind.includes(name))),
    );
    if (faults.length === 0) throw new Error(`no fault of ${options.faults?.join(', ')} applies to ${kind}`);
    const faultsFrom = Date.now();
    while (Date.now() - faultsFrom < options.faultSeconds * 1000) {
      const fault = faults[Math.floor(random() * faults.length)]!;
      const entry: RunResult['faults'][number] = { kind: fault.kind, recoveryMs: null };
      result.faults.push(entry);
      const healedAt = await fault.run(live, random);
      entry.recoveryMs = await recovery(devices, healedAt, fault.kind);
    }
    writing = false;
    await Promise.all(writers);
    const verdict = await finalVerdict(ground, live.primary, cookie, devices);
    result.acknowledged = verdict.acknowledged;
    result.lost += verdict.lost;
    result.violations.push(...verdict.violations);
  } catch (error) {
    result.violations.push(
      error instanceof Violation ? error.message : `the run failed: ${error instanceof Error ? error.stack : String(error)}`,
    );
    result.acknowledged = devices.reduce(
      (sum, device) => sum + device.writes.filter((write) => write.clock <= device.ackedClock()).length,
      0,
    );
    if (!(error instanceof Violation) && live) result.notes.push(live.primary.output().slice(-1500));
  } finally {
    writing = false;
    await Promise.all(writers);
    result.writes = devices.reduce((sum, device) => sum + device.writes.length, 0);
    for (const device of devices) await device.destroy();
    for (const proxy of proxies) await proxy.close();
    await ground.dispose();
    result.seconds = (Date.now() - started) / 1000;
  }
  return result;
}
