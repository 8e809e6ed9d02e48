import { execFileSync } from 'node:child_process';
import { rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerProcess } from '../test/support/server-process.ts';
import type { Ground } from './cluster.ts';
import type { ChaosDevice, Write } from './devices.ts';
import type { ChaosProxy } from './proxy.ts';

export type Random = () => number;

/** A broken promise of the product: the oracle's finding, with what it was about. */
export class Violation extends Error {}

/**
 * The live system of one run: the instance devices reach (through their own proxy, a load
 * balancer the nemesis points and partitions), a second instance while one runs.
 */
export type Live = {
  ground: Ground;
  primary: ServerProcess;
  devices: ChaosDevice[];
  proxies: ChaosProxy[];
  /** The admin's session cookie (sessions live in Postgres: they survive restarts). */
  cookie: string;
  /** Checks that the writes acknowledged before a restart are in the (re)started server: the document and the projection. */
  probe(server: ServerProcess, acknowledged: Write[], waitMs?: number): Promise<void>;
  /** Notes for the table (how a start on a full disk went). */
  notes: string[];
  /** Violations that do not end the run. */
  complaints: string[];
};

export type Fault = {
  kind: string;
  applies(ground: Ground): boolean;
  /** Injects the fault, holds it, heals it; resolves with when it was healed (ms since epoch). */
  run(live: Live, random: Random): Promise<number>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low));
const portOf = (server: ServerProcess) => Number(new URL(server.url).port);

/** What every device has had acknowledged so far: the writes a restart must keep. */
const acknowledged = (live: Live): Write[] =>
  live.devices.flatMap((device) => {
    const clock = device.ackedClock();
    return device.writes.filter((write) => write.clock <= clock);
  });

/**
 * The plain start command after a fault — no lock removed, nothing repaired by hand
 * ("the server came back on its own"); then the durability probe while devices are still
 * held off, then devices are let in. Returns the heal time, not counting the probe.
 */
async function restart(live: Live, ackedBefore: Write[]): Promise<number> {
  const healedAt = Date.now();
  let server: ServerProcess;
  try {
    server = await live.ground.start();
  } catch (error) {
    throw new Violation(`the plain start command did not bring the server back: ${String(error).slice(0, 600)}`);
  }
  live.primary = server;
  const probing = Date.now();
  await live.probe(server, ackedBefore);
  for (const proxy of live.proxies) {
    proxy.retarget(portOf(server), true);
    proxy.restore();
  }
  return healedAt + (Date.now() - probing);
}

const killed: Fault = {
  kind: 'server killed (-9), restarted',
  applies: () => true,
  async run(live, random) {
    await sleep(between(random, 300, 1500));
    // Killed mid-stream; then devices are held off (as a dead server does) until the probe is done.
    await live.primary.kill('SIGKILL');
    for (const proxy of live.proxies) proxy.cut();
    const ackedBefore = acknowledged(live);
    await sleep(between(random, 100, 1500));
    return restart(live, ackedBefore);
  },
};

const stopped: Fault = {
  kind: 'server stopped (SIGTERM), restarted',
  applies: () => true,
  async run(live, random) {
    await sleep(between(random, 300, 1500));
    await live.primary.kill('SIGTERM');
    // Devices find it gone (closed 1012 first) for as long as it is down.
    for (const proxy of live.proxies) proxy.cut();
    const exit = live.primary.exit();
    if (exit !== 0) throw new Violation(`a graceful stop exited with ${exit}:\n${live.primary.output().slice(-600)}`);
    const ackedBefore = acknowledged(live);
    await sleep(between(random, 100, 1000));
    return restart(live, ackedBefore);
  },
};

const postgresDown: Fault = {
  kind: 'Postgres down (proxy cut), back',
  applies: (ground) => ground.dbProxy !== undefined,
  async run(live, random) {
    await sleep(between(random, 300, 1500));
    live.ground.dbProxy!.cut();
    await sleep(between(random, 500, 3000));
    live.ground.dbProxy!.restore();
    return Date.now();
  },
};

const partition: Fault = {
  kind: 'devices partitioned (proxy paused or cut)',
  applies: () => true,
  async run(live, random) {
    await sleep(between(random, 300, 1500));
    const cut = live.proxies.filter(() => random() < 0.5);
    const chosen = cut.length > 0 ? cut : [live.proxies[between(random, 0, live.proxies.length)]!];
    // A paused path keeps the socket open and moves no byte (a dead route); a cut one drops and refuses.
    const pause = random() < 0.5;
    for (const proxy of chosen) pause ? proxy.pause() : proxy.cut();
    await sleep(between(random, 500, 4000));
    for (const proxy of chosen) pause ? proxy.resume() : proxy.restore();
    return Date.now();
  },
};

const instanceKilled: Fault = {
  kind: 'one of two instances killed (-9)',
  // Instances share Postgres, never PGlite (docs/architecture.md "Several instances").
  applies: (ground) => ground.kind === 'postgres',
  async run(live, random) {
    let second: ServerProcess;
    try {
      second = await live.ground.start();
    } catch (error) {
      throw new Violation(`a second instance did not start: ${String(error).slice(0, 600)}`);
    }
    // The load balancer sends some devices to the new instance.
    const moved = live.proxies.filter(() => random() < 0.5);
    for (const proxy of moved) proxy.retarget(portOf(second), true);
    await sleep(between(random, 500, 2000));
    const first = live.primary;
    await first.kill('SIGKILL');
    for (const proxy of live.proxies) proxy.cut();
    const ackedBefore = acknowledged(live);
    const healedAt = Date.now();
    live.primary = second;
    // What the killed instance acknowledged is in Postgres: the survivor has it (its
    // notification may take a moment, at most 5 s if lost: "Several instances").
    const probing = Date.now();
    await live.probe(second, ackedBefore, 6000);
    // Devices on the killed instance move to the survivor.
    for (const proxy of live.proxies) {
      proxy.retarget(portOf(second), true);
      proxy.restore();
    }
    return healedAt + (Date.now() - probing);
  },
};

const diskFull: Fault = {
  kind: 'restart on a nearly full disk',
  applies: (ground) => ground.tmpfs !== undefined,
  async run(live, random) {
    const disk = live.ground.tmpfs!;
    await sleep(between(random, 300, 1500));
    await live.primary.kill('SIGKILL');
    for (const proxy of live.proxies) proxy.cut();
    let ackedBefore = acknowledged(live);
    // Fill the data folder's disk, leaving 0–256 KiB.
    const filler = join(disk, 'filler');
    const { bavail, bsize } = statfsSync(disk);
    const leave = random() < 0.5 ? 0 : between(random, 0, 256 * 1024);
    const size = Math.max(0, bavail * bsize - leave);
    if (size > 0) execFileSync('fallocate', ['-l', String(size), filler]);
    let onFullDisk: ServerProcess | undefined;
    try {
      onFullDisk = await live.ground.start();
      live.notes.push(`started with ${Math.round(leave / 1024)} KiB free`);
      live.primary = onFullDisk;
      for (const proxy of live.proxies) {
        proxy.retarget(portOf(onFullDisk), true);
        proxy.restore();
      }
    } catch (error) {
      const reason = String(error)
        .split('\n')
        .find((line) => /space|ENOSPC/i.test(line));
      live.notes.push(`refused to start with ${Math.round(leave / 1024)} KiB free: ${reason?.trim() ?? 'NO CLEAR REASON'}`);
      // Not fatal to the run: what matters next is that it comes back, with everything, once space returns.
      if (!reason) live.complaints.push(`on a full disk the server failed without saying why:\n${String(error).slice(0, 800)}`);
    }
    const ackedWhenFull = acknowledged(live).length;
    await sleep(between(random, 500, 2000));
    if (onFullDisk) {
      const said = /ENOSPC|No space left/i.test(onFullDisk.output()) ? ', said "no space"' : '';
      live.notes.push(`${acknowledged(live).length - ackedWhenFull} writes acknowledged on the full disk${said}`);
    }
    if (onFullDisk && onFullDisk.exit() === null && random() < 0.5) {
      // What it acknowledged on the full disk is durable: killed before the space returns, none of it is lost.
      await onFullDisk.kill('SIGKILL');
      for (const proxy of live.proxies) proxy.cut();
      ackedBefore = acknowledged(live);
      live.notes.push('killed on the full disk');
    }
    rmSync(filler, { force: true });
    // Space is back: a running server must carry on by itself; one that exited starts with the plain command.
    if (onFullDisk && onFullDisk.exit() === null) return Date.now();
    if (onFullDisk && onFullDisk.exit() !== 'SIGKILL') live.notes.push(`exited on the full disk (${onFullDisk.exit()})`);
    for (const proxy of live.proxies) proxy.cut();
    return restart(live, ackedBefore);
  },
};

export const FAULTS: Fault[] = [killed, stopped, postgresDown, partition, instanceKilled, diskFull];
