// The long tasks of a Chromium trace (one written by trace.ts), taken apart:
//   node --import tsx web/bench/trace-tasks.ts <trace.json> [threshold ms, 50] [thread name, CrRendererMain]
// For each task on the thread at or over the threshold: when it ran (from the trace's first
// navigation), its length, and what it ran — the events nested in it, aggregated by name
// with a detail (a script's URL and function, an event's type, how many elements a style
// pass touched), longest first — and the page's own user-timing marks and measures near
// it. A task the timeline names nothing in (native work, GC) shows as "(unnamed)".
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; beginData?: Record<string, unknown> };
}

const [file, thresholdArg, threadArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: trace-tasks.ts <trace.json> [threshold ms] [thread name]');
  process.exit(2);
}
const threshold = Number(thresholdArg ?? 50) * 1000;
const threadName = threadArg ?? 'CrRendererMain';
const events: TraceEvent[] = JSON.parse(readFileSync(file, 'utf8')).traceEvents;

const threads = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === threadName);
const key = (e: TraceEvent) => `${e.pid}:${e.tid}`;
const wanted = new Set(threads.map(key));
const onThread = events.filter((e) => wanted.has(key(e)) && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
const origin =
  events.find((e) => e.name === 'navigationStart' || e.name === 'NavigationStart')?.ts ?? Math.min(...onThread.map((e) => e.ts));
const marks = events.filter((e) => e.cat.includes('blink.user_timing') && (e.ph === 'R' || e.ph === 'I' || e.ph === 'b' || e.ph === 'n'));

/** A nested event's detail: what the timeline says it ran. */
function detail(e: TraceEvent): string {
  const data = e.args?.data ?? e.args?.beginData ?? {};
  if (e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compile' || e.name === 'v8.compileModule') {
    const url = String(data.url ?? '').replace(/^.*\//, '');
    const fn = data.functionName ? `${data.functionName} ` : '';
    return `${fn}${url}${data.lineNumber !== undefined ? `:${data.lineNumber}` : ''}`;
  }
  if (e.name === 'EventDispatch') return String(data.type ?? '');
  if (e.name === 'UpdateLayoutTree') return `${data.elementCount ?? '?'} elements`;
  if (e.name === 'TimerFire' || e.name === 'FireAnimationFrame') return String(data.timerId ?? data.id ?? '');
  return '';
}

const ms = (us: number) => `${(us / 1000).toFixed(1)} ms`;
let count = 0;
for (const task of onThread) {
  if (task.name !== 'RunTask' || task.dur! < threshold) continue;
  count++;
  const end = task.ts + task.dur!;
  const inside = onThread.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur! <= end);
  // Depth-one events: those not nested in another event inside the task.
  const top = inside.filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!));
  const byName = new Map<string, { total: number; n: number }>();
  const add = (e: TraceEvent, prefix: string) => {
    const k = `${prefix}${e.name} ${detail(e)}`.trim();
    const entry = byName.get(k) ?? { total: 0, n: 0 };
    entry.total += e.dur!;
    entry.n++;
    byName.set(k, entry);
  };
  for (const e of top) add(e, '');
  // What ran inside the depth-one events worth naming: compiles, GC, style and layout.
  for (const e of inside) {
    if (top.includes(e)) continue;
    if (/compile|GC|UpdateLayoutTree|Layout|ParseHTML|EventDispatch|TimerFire|FireAnimationFrame|RunMicrotasks/.test(e.name))
      add(e, '  in: ');
  }
  const named = top.reduce((sum, e) => sum + e.dur!, 0);
  console.log(`task at ${ms(task.ts - origin)}: ${ms(task.dur!)} (${ms(task.dur! - named)} with no event named)`);
  for (const [name, { total, n }] of [...byName].sort((a, b) => b[1].total - a[1].total).slice(0, 14)) {
    console.log(`  ${ms(total).padStart(10)}  ${n > 1 ? `${n}× ` : ''}${name}`);
  }
  const near = marks.filter((m) => m.ts >= task.ts - 20_000 && m.ts <= end + 20_000).map((m) => m.name);
  if (near.length > 0) console.log(`  marks near: ${[...new Set(near)].join(', ')}`);
}
console.log(`${count} tasks of ${ms(threshold)} or more on ${threadName} (${threads.length} thread(s))`);
