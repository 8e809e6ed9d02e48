// Load process: opens N idle sync connections (each syncs an empty document once, then
// stays silent), prints "ready", and holds them until killed.
import WebSocket from 'ws';
import * as encoding from 'lib0/encoding';
import * as syncProtocol from 'y-protocols/sync';
import * as Y from 'yjs';
import { DOC_NAME, SYNC_PATH } from '../../shared/index.ts';
import { until, type Target } from './clients.ts';

const input = JSON.parse(process.env.BENCH_INPUT ?? '{}') as Target & { connections: number };
const url = `${input.url.replace(/^http/, 'ws')}${input.kind === 'ours' ? SYNC_PATH : ''}/${DOC_NAME}`;
const encoder = encoding.createEncoder();
encoding.writeVarUint(encoder, 0); // sync message
syncProtocol.writeSyncStep1(encoder, new Y.Doc());
const step1 = encoding.toUint8Array(encoder);

let answered = 0;
const sockets: WebSocket[] = [];
// A few at a time, as devices arrive; the server's upgrade path is what is measured.
for (let i = 0; i < input.connections; i++) {
  const socket = new WebSocket(url, { headers: input.cookie ? { cookie: input.cookie } : {} });
  let counted = false;
  socket.on('open', () => socket.send(step1));
  socket.on('message', () => {
    if (!counted) answered++;
    counted = true;
  });
  socket.on('error', (error) => console.error(error.message));
  sockets.push(socket);
  if (i % 50 === 49) await until(() => answered >= i - 10, 30_000, 'connections');
}
await until(() => answered >= input.connections, 30_000, 'all connections');
console.log('ready');
setInterval(() => {}, 1000);
