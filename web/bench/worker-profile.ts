// A CPU profile of the data worker (the SharedWorker that holds the document, the socket and
// the projection) over part of a bench run, e.g. a first sync (BENCH_PROFILE_SYNC=<file>).
// Playwright reaches pages and service workers but not shared workers, so this goes through
// the browser's own DevTools session: the worker is attached as it starts (Target domain,
// unflattened: its protocol messages travel inside the browser session's) and profiled until
// `run` ends. Written as a .cpuprofile and summarised in the log as cpu-profile.ts does; the
// worker's console warnings and errors meanwhile are logged.
import { writeFileSync } from 'node:fs';
import type { BrowserContext, CDPSession } from 'playwright-core';
import { summarise, type Profile } from './cpu-profile.ts';

type TargetInfo = { targetId: string; type: string; url: string };
type Reply = { id?: number; result?: unknown; error?: { message: string }; method?: string; params?: unknown };
type ConsoleCall = { type: string; args: { value?: unknown; description?: string }[] };

/**
 * Sends protocol commands to one attached target through the browser's session; its events
 * go to `onEvent`.
 */
function targetChannel(browser: CDPSession, sessionId: string, onEvent: (method: string, params: unknown) => void) {
  let next = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  browser.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const reply = JSON.parse(event.message) as Reply;
    if (reply.method) onEvent(reply.method, reply.params);
    const pending = reply.id === undefined ? undefined : waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id!);
    if (reply.error) pending.reject(new Error(reply.error.message));
    else pending.resolve(reply.result);
  });
  return (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      void browser.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
}

/**
 * Runs `run`, profiling the first shared worker started in `context`'s browser meanwhile;
 * writes the profile to `file` and logs its top functions by self time.
 */
export async function profileDataWorker<T>(
  context: BrowserContext,
  file: string,
  log: (line: string) => void,
  run: () => Promise<T>,
): Promise<T> {
  const browserOf = context.browser();
  if (!browserOf) throw new Error('BENCH_PROFILE_SYNC: the context has no browser to open a session on');
  const browser = await browserOf.newBrowserCDPSession();
  let send: ((method: string, params?: object) => Promise<unknown>) | null = null;
  let started: Promise<unknown> | null = null;
  browser.on('Target.targetCreated', ({ targetInfo }: { targetInfo: TargetInfo }) => {
    if (targetInfo.type !== 'shared_worker' || started) return;
    started = (async () => {
      const { sessionId } = (await browser.send('Target.attachToTarget', { targetId: targetInfo.targetId, flatten: false })) as {
        sessionId: string;
      };
      send = targetChannel(browser, sessionId, (method, params) => {
        if (method !== 'Runtime.consoleAPICalled') return;
        const { type, args } = params as ConsoleCall;
        if (type !== 'warning' && type !== 'error') return;
        log(
          `  data worker ${type}: ${args
            .map((arg) => arg.description ?? String(arg.value))
            .join(' ')
            .slice(0, 600)}`,
        );
      });
      await send('Runtime.enable');
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 500 });
      await send('Profiler.start');
      log(`  profile: data worker ${targetInfo.url} attached`);
    })();
  });
  await browser.send('Target.setDiscoverTargets', { discover: true });
  try {
    return await run();
  } finally {
    if (started) {
      await started;
      const { profile } = (await send!('Profiler.stop')) as { profile: Profile };
      writeFileSync(file, JSON.stringify(profile));
      for (const line of summarise(profile, 40)) log(`  profile: ${line}`);
      log(`  profile: written to ${file}`);
    } else {
      log('  profile: no shared worker started');
    }
    await browser.detach();
  }
}
