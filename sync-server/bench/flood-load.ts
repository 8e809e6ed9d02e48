// Load process: a read-only client that floods the sync socket with sync step 1 requests
// (each asks for the whole document) and never reads an answer. Sockets the server closes
// are reopened at once, as a stubborn attacker would. Prints "ready" once flooding; prints
// what it sent and how its sockets ended, as JSON, when sent SIGTERM.
import WebSocket from 'ws';
import { DOC_NAME, SYNC_PATH } from '../../shared/index.ts';

const input = JSON.parse(process.env.BENCH_INPUT ?? '{}') as { url: string; cookie: string; sockets: number; perTick: number };
const url = `${input.url.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}`;
// messageSync, syncStep1, a state vector of length 1 holding 0 clients: "send me everything".
const STEP1 = Buffer.from([0, 0, 1, 0]);
const stats = { sent: 0, opened: 0, closes: {} as Record<string, number> };
let ready = false;

function open(): void {
  const socket = new WebSocket(url, { headers: { cookie: input.cookie, origin: input.url } });
  stats.opened++;
  let timer: ReturnType<typeof setInterval> | undefined;
  socket.on('open', () => {
    socket.pause(); // never read: whatever the server sends stays in its buffers
    timer = setInterval(() => {
      for (let i = 0; i < input.perTick && socket.readyState === WebSocket.OPEN; i++) {
        socket.send(STEP1);
        stats.sent++;
      }
    }, 5);
    if (!ready) {
      ready = true;
      console.log('ready');
    }
  });
  socket.on('close', (code) => {
    clearInterval(timer);
    stats.closes[code] = (stats.closes[code] ?? 0) + 1;
    setTimeout(open, 50);
  });
  socket.on('error', () => {});
}

for (let i = 0; i < input.sockets; i++) open();
process.on('SIGTERM', () => {
  console.log(JSON.stringify(stats));
  process.exit(0);
});
