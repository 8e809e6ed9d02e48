import { connect } from 'node:net';

export type RawAnswer = { status: number; headers: Record<string, string>; body: string } | { error: string };

/**
 * A request sent the way curl sends one without `Expect: 100-continue`: the whole body is
 * written before a byte of the answer is read. A server that answers and closes while the
 * body still arrives resets the connection, and such a client never reads the answer.
 */
export function sendThenRead(url: string, method: string, headers: Record<string, string>, body: Uint8Array): Promise<RawAnswer> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.pause();
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (answer: RawAnswer) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(answer);
    };
    socket.on('error', (error) => settle({ error: (error as NodeJS.ErrnoException).code ?? error.message }));
    const head = [
      `${method} ${pathname} HTTP/1.1`,
      `host: ${hostname}:${port}`,
      `content-length: ${body.byteLength}`,
      'connection: close',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      '',
      '',
    ].join('\r\n');
    socket.write(head);
    socket.write(body, (error) => {
      if (error) return settle({ error: (error as NodeJS.ErrnoException).code ?? error.message });
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [top = '', rest = ''] = text.split('\r\n\r\n', 2);
        const [statusLine = '', ...lines] = top.split('\r\n');
        const status = Number(statusLine.split(' ')[1]);
        const parsed = Object.fromEntries(
          lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
        );
        settle(
          Number.isInteger(status) && status > 0
            ? { status, headers: parsed, body: rest }
            : { error: `no answer: ${JSON.stringify(text.slice(0, 80))}` },
        );
      });
      socket.resume();
    });
  });
}
