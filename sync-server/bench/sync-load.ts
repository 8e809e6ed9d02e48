// Load process of the initial-sync benchmark: one new device (a stock y-websocket client
// with an empty document) in a fresh process, so the driver's own copies of the ranch do
// not weigh on it. Prints one JSON line: milliseconds to the first message, to the sync
// step 2 having arrived, and to every horse being in the device's document, and the bytes
// the device's socket read (compressed, when the server compresses).
import { performance } from 'node:perf_hooks';
import { connect, until, type Target } from './clients.ts';

const input = JSON.parse(process.env.BENCH_INPUT ?? '{}') as Target & { horses: number };
const start = performance.now();
let firstMessageMs = NaN;
let receivedMs = NaN;
const device = connect(input);
const socketReady = () => {
  const socket = device.provider.ws;
  if (!socket) return false;
  socket.addEventListener('message', (event: MessageEvent) => {
    const now = performance.now() - start;
    if (Number.isNaN(firstMessageMs)) firstMessageMs = now;
    // The big message is the state (sync step 2); note when its bytes were in.
    if ((event.data as ArrayBuffer).byteLength > 1_000_000 && Number.isNaN(receivedMs)) receivedMs = now;
  });
  return true;
};
await until(socketReady, 10_000, 'the socket');
await device.synced;
await until(() => device.doc.getMap('horses').size >= input.horses, 60_000, 'all horses');
const totalMs = performance.now() - start;
// ws keeps its TCP socket in `_socket`: what arrived on the wire, frames and all.
const wireBytes = (device.provider.ws as unknown as { _socket?: { bytesRead: number } } | null)?._socket?.bytesRead ?? NaN;
console.log(JSON.stringify({ firstMessageMs, receivedMs, totalMs, wireBytes }));
device.destroy();
process.exit(0);
