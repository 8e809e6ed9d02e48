// The phone's whole browser confined to a share of the host's CPU (docs/performance.md "The
// host and the phone"): Chromium's page throttle slows only the page's main thread, never a
// worker, so the data worker, the service worker and the browser's other processes would
// otherwise run at the host's full speed. A cgroup v1 CPU quota slows every process put in
// the group, and a process forked later starts in its parent's group. So the browser is
// launched through a small wrapper that moves itself into the group and then execs Chromium:
// the browser, its zygotes, renderers, workers' processes and utility processes are all
// born inside it, whenever Chromium starts them.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { CHROMIUM } from '../e2e/support/browser.ts';

const CPU_CONTROLLER = '/sys/fs/cgroup/cpu';
/**
 * The quota's period. Short, so that a share of the CPU slows each task evenly instead of
 * stopping the whole browser for most of a long period at a time, which would make long
 * tasks of short ones.
 */
const PERIOD_US = 10_000;

export type Confinement =
  | {
      confined: true;
      /** The cgroup's path. */
      path: string;
      /** Chromium through the wrapper: launch with this as executablePath. */
      executablePath: string;
      /** Sets the browser's share of the CPU, in cores (Infinity: no quota). */
      setShare(cores: number): void;
      share(): number;
      /** The PIDs in the group now: every process of the browser. */
      processes(): number[];
      /** The quota's periods so far and how many of them it stopped the group in (cpu.stat). */
      stat(): { periods: number; throttled: number; throttledMs: number };
      /** Removes the group and the wrapper; the browsers must be closed. */
      release(): void;
    }
  | { confined: false; reason: string; executablePath: string; release(): void };

/**
 * A cgroup for one bench's browsers, or why none could be made; `BENCH_PHONE_SHARE=none` asks
 * for none. `browser`: what the wrapper execs (Chromium).
 */
export function confineBrowsers(prefix: string, browser = CHROMIUM.executablePath): Confinement {
  const unconfined = (reason: string): Confinement => ({ confined: false, reason, executablePath: browser, release: () => {} });
  if (process.env.BENCH_PHONE_SHARE === 'none') return unconfined('BENCH_PHONE_SHARE=none');
  if (!existsSync(join(CPU_CONTROLLER, 'cpu.cfs_quota_us'))) return unconfined(`no cgroup v1 cpu controller at ${CPU_CONTROLLER}`);
  const path = join(CPU_CONTROLLER, `${prefix}${process.pid}-${Date.now().toString(36)}`);
  const dir = mkdtempSync(join(tmpdir(), `${prefix}wrapper-`));
  try {
    mkdirSync(path);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return unconfined(`cannot make a cgroup in ${CPU_CONTROLLER} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const release = () => {
    process.off('exit', release);
    // A process still in the group (a browser that did not exit) goes back to the root group, or rmdir fails.
    for (const pid of readPids(path)) {
      try {
        writeFileSync(join(CPU_CONTROLLER, 'cgroup.procs'), String(pid));
      } catch {}
    }
    try {
      rmdirSync(path);
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    writeFileSync(join(path, 'cpu.cfs_period_us'), String(PERIOD_US));
    writeFileSync(join(path, 'cpu.cfs_quota_us'), '-1');
    // The wrapper refuses to start Chromium outside the group rather than measure an unconfined phone.
    const wrapper = join(dir, 'chromium-confined');
    writeFileSync(wrapper, `#!/bin/sh\necho $$ > '${join(path, 'cgroup.procs')}' || exit 97\nexec '${browser}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    // Once, as the browser will: a process that moves itself in, and shows where it is.
    const probe = spawnSync('/bin/sh', ['-c', `echo $$ > '${join(path, 'cgroup.procs')}' && cat /proc/self/cgroup`], { encoding: 'utf8' });
    const group = path.slice(CPU_CONTROLLER.length);
    if (probe.status !== 0 || !probe.stdout.split('\n').some((line) => /^\d+:cpu(,cpuacct)?:/.test(line) && line.endsWith(group))) {
      release();
      return unconfined(`a process cannot join ${path} (${probe.stderr.trim() || `exit ${probe.status}`})`);
    }
    // A bench stopped halfway (a signal, a thrown error) leaves no group behind.
    process.once('exit', release);
    let cores = Number.POSITIVE_INFINITY;
    return {
      confined: true,
      path,
      executablePath: wrapper,
      setShare(next) {
        cores = next;
        const quota = Number.isFinite(next) ? String(Math.max(1000, Math.round(next * PERIOD_US))) : '-1';
        writeFileSync(join(path, 'cpu.cfs_quota_us'), quota);
      },
      share: () => cores,
      processes: () => readPids(path),
      stat() {
        const fields = new Map(
          readFileSync(join(path, 'cpu.stat'), 'utf8')
            .trim()
            .split('\n')
            .map((line) => line.split(' ') as [string, string]),
        );
        return {
          periods: Number(fields.get('nr_periods') ?? 0),
          throttled: Number(fields.get('nr_throttled') ?? 0),
          throttledMs: Number(fields.get('throttled_time') ?? 0) / 1e6,
        };
      },
      release,
    };
  } catch (error) {
    release();
    return unconfined(`cannot set a CPU quota on ${path} (${(error as Error).message})`);
  }
}

function readPids(path: string): number[] {
  try {
    return readFileSync(join(path, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** "0.95 cores of the host's 2". */
export function cores(share: number): string {
  return `${share.toFixed(2)} cores of the host's ${cpus().length}`;
}
