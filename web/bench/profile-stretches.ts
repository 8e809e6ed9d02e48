// The busy stretches of a CPU profile (one written by cpu-profile.ts), taken apart:
//   node --import tsx web/bench/profile-stretches.ts <file.cpuprofile> [threshold ms, 50]
// A stretch is a run of samples that are not idle (native work the profiler calls
// "(program)" counts as busy: a task's parse, style and layout show as that). For each
// stretch at or over the threshold: when it began (from the profile's start), its length,
// the functions with the most self time in it and the frames with the most time in them
// (inclusive: a module's top level, a React render), each with its script and line. With a
// build made with `npx vite build --minify false`, functions keep their names.
import { readFileSync } from 'node:fs';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number };

const [file, thresholdArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-stretches.ts <file.cpuprofile> [threshold ms]');
  process.exit(2);
}
const threshold = Number(thresholdArg ?? 50) * 1000;
const profile: Profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const name = (frame: CallFrame) => {
  const where = frame.url ? ` ${frame.url.split('/').pop()}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'}${where}`;
};
const idle = (id: number) => byId.get(id)?.callFrame.functionName === '(idle)';

// Sample i lasts timeDeltas[i + 1] (the next sample's delta), as DevTools counts it.
let at = 0;
const times = profile.samples.map((_, i) => {
  at += profile.timeDeltas[i] ?? 0;
  return at;
});

function report(from: number, to: number) {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (let i = from; i < to; i++) {
    const us = profile.timeDeltas[i + 1] ?? 0;
    const leaf = byId.get(profile.samples[i]!)!;
    self.set(name(leaf.callFrame), (self.get(name(leaf.callFrame)) ?? 0) + us);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (!frame.url) continue;
      const key = name(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => `    ${(us / 1000).toFixed(1).padStart(7)} ms  ${key}`);
  console.log('  self:');
  for (const line of top(self, 10)) console.log(line);
  console.log('  inclusive (frames with a script):');
  for (const line of top(inclusive, 14)) console.log(line);
}

let count = 0;
for (let i = 0; i < profile.samples.length; ) {
  if (idle(profile.samples[i]!)) {
    i++;
    continue;
  }
  let j = i;
  while (j < profile.samples.length && !idle(profile.samples[j]!)) j++;
  const length = (times[j - 1] ?? 0) - (times[i] ?? 0) + (profile.timeDeltas[j] ?? 0);
  if (length >= threshold) {
    count++;
    console.log(`stretch at ${((times[i] ?? 0) / 1000).toFixed(1)} ms: ${(length / 1000).toFixed(1)} ms`);
    report(i, j);
  }
  i = j;
}
console.log(`${count} stretches of ${threshold / 1000} ms or more`);
