import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Confinement, confineBrowsers } from './confined-browser.ts';

/** Where this machine lets the bench confine a browser: a cgroup v1 cpu controller, as root. */
const CAN_CONFINE = existsSync('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') && process.getuid?.() === 0;

/** The cpu cgroup of the process `script` runs in as /bin/sh, and of a process it starts. */
const cgroupsThrough = (wrapper: string) =>
  spawnSync(
    wrapper,
    ['-c', 'grep -E "^[0-9]+:cpu(,cpuacct)?:" /proc/self/cgroup; sh -c \'grep -E "^[0-9]+:cpu(,cpuacct)?:" /proc/self/cgroup\''],
    {
      encoding: 'utf8',
    },
  );

let confinement: Confinement | undefined;
afterEach(() => {
  confinement?.release();
  confinement = undefined;
  vi.unstubAllEnvs();
});

describe('the phone browser confined to a share of the CPU', () => {
  it('starts the browser and every process it starts in a group of its own, with the share set; or says why it cannot', () => {
    confinement = confineBrowsers('ranch-test-confined-', '/bin/sh');
    if (!CAN_CONFINE) {
      // No cgroup v1 cpu controller, or not root: the browser starts itself, and the bench says why.
      expect(confinement).toMatchObject({ confined: false, executablePath: '/bin/sh', reason: expect.stringMatching(/cgroup/) });
      return;
    }
    if (!confinement.confined) throw new Error(`not confined: ${confinement.reason}`);
    const group = confinement.path.slice('/sys/fs/cgroup/cpu'.length);
    const run = cgroupsThrough(confinement.executablePath);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.endsWith(`:${group}`)).toBe(true);
    confinement.setShare(0.5);
    expect(
      Number(readFileSync(join(confinement.path, 'cpu.cfs_quota_us'), 'utf8')) /
        Number(readFileSync(join(confinement.path, 'cpu.cfs_period_us'), 'utf8')),
    ).toBe(0.5);
    confinement.setShare(Number.POSITIVE_INFINITY);
    expect(readFileSync(join(confinement.path, 'cpu.cfs_quota_us'), 'utf8').trim()).toBe('-1');
    const path = confinement.path;
    confinement.release();
    expect(existsSync(path)).toBe(false);
  });

  it('leaves the browser unconfined when asked to, saying so', () => {
    vi.stubEnv('BENCH_PHONE_SHARE', 'none');
    confinement = confineBrowsers('ranch-test-confined-', '/bin/sh');
    expect(confinement).toEqual({
      confined: false,
      reason: 'BENCH_PHONE_SHARE=none',
      executablePath: '/bin/sh',
      release: expect.any(Function),
    });
  });
});
