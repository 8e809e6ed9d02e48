// The REST peer: plain node:http answering every request with the same bytes from memory
// (BENCH_BYTES_FILE, sent with BENCH_BYTES_HEADERS): what this machine and the load tool
// allow for an answer of that size, with no session, no routing and no database.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BENCH_BYTES_FILE);
const headers = { ...JSON.parse(process.env.BENCH_BYTES_HEADERS ?? '{}'), 'content-length': body.length };
const server = createServer((_request, response) => response.writeHead(200, headers).end(body));
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => process.exit(0));
