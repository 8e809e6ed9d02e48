// What the whole browser holds in memory (issue 68's memory target): the proportional set
// size (PSS: each page of memory shared between processes counted in shares) of every process
// of one browser, read from Linux's /proc. The app's figure is the browser with the app,
// less the same browser showing a blank page.
import { readdirSync, readFileSync } from 'node:fs';

type Proc = { pid: number; ppid: number; cmdline: string };

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": the command's name may hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      found.push({ pid: Number(entry), ppid, cmdline });
    } catch {} // gone meanwhile
  }
  return found;
}

/** `roots` and every process descended from them. */
function withDescendants(all: Proc[], roots: number[]): Set<number> {
  const members = new Set(roots);
  for (let grew = true; grew; ) {
    grew = false;
    for (const proc of all) {
      if (!members.has(proc.pid) && members.has(proc.ppid)) {
        members.add(proc.pid);
        grew = true;
      }
    }
  }
  return members;
}

/**
 * Every process of the browser whose profile folder is `profileDir`: those whose command
 * line names the folder (the browser process, its crash handler) and all their descendants
 * (zygotes, renderers, workers' and utility processes).
 */
export function browserProcesses(profileDir: string): number[] {
  const all = processes();
  return [
    ...withDescendants(
      all,
      all.filter((proc) => proc.cmdline.includes(profileDir)).map((proc) => proc.pid),
    ),
  ];
}

/** The processes' PSS added up, in bytes (a process gone meanwhile counts 0). */
export function pss(pids: number[]): number {
  let kib = 0;
  for (const pid of pids) {
    try {
      const line = /^Pss:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kib += Number(line?.[1] ?? 0);
    } catch {}
  }
  return kib * 1024;
}

/** The Chromium processes this process started, its own descendants (to check a confinement holds them all). */
export function chromiumDescendants(): number[] {
  const all = processes();
  const members = withDescendants(all, [process.pid]);
  return all.filter((proc) => members.has(proc.pid) && /chrom/.test(proc.cmdline.split(' ')[0] ?? '')).map((proc) => proc.pid);
}
