import WebSocket from 'ws';
import { DOC_NAME, SYNC_PATH } from '../../../shared/index.ts';

/** An open sync socket of a session, and how it ended once it did (undefined while open). */
export type SyncSocket = { closeCode(): number | undefined; close(): void };

/** Opens a raw sync socket with the session's cookie and waits until the server accepted it (its first message). */
export async function openSyncSocket(baseUrl: string, cookie: string): Promise<SyncSocket> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${SYNC_PATH}/${DOC_NAME}`, { headers: { cookie } });
  let code: number | undefined;
  socket.on('close', (closed) => {
    code = closed;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('message', () => resolve());
    socket.once('close', (closed) => reject(new Error(`The sync socket was refused with ${closed}`)));
    socket.once('error', reject);
  });
  return { closeCode: () => code, close: () => socket.close() };
}
