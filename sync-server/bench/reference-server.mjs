// The reference peer: @y/websocket-server 0.1.1, in memory (no YPERSISTENCE), no auth, in a
// process of its own, on a loopback port chosen by the system.
import { WebSocketServer } from 'ws';
import { createServer } from 'node:http';
import { setupWSConnection } from '@y/websocket-server/utils';

const server = createServer((_request, response) => response.writeHead(200).end('reference'));
const wss = new WebSocketServer({ noServer: true });
wss.on('connection', setupWSConnection);
server.on('upgrade', (request, socket, head) => wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request)));
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
