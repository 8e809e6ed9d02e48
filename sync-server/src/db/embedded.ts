import { statfsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { lockDataDir } from './data-dir-lock.ts';

export type EmbeddedPostgres = {
  /** postgres:// URL of the loopback socket in front of PGlite. */
  url: string;
  stop(): Promise<void>;
};

/**
 * Starts PGlite in a worker thread. `dataDir` undefined keeps the database in memory (tests);
 * otherwise the data lives in `<dataDir>/pg` and a lock the kernel releases with this process
 * (data-dir-lock.ts) stops a second server from opening the same folder, which would silently
 * lose committed rows.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<EmbeddedPostgres> {
  const lock = dataDir ? await lockDataDir(dataDir) : undefined;
  const releaseLock = async () => lock?.release();
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir: dataDir ? join(dataDir, 'pg') : undefined },
  });
  try {
    const address = await new Promise<string>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`Embedded Postgres exited with code ${code}`)));
      worker.on('message', (message: { type: string; address?: string }) => {
        if (message.type === 'ready' && message.address) resolve(message.address);
      });
    });
    worker.removeAllListeners('exit');
    return {
      url: `postgres://postgres@${address}/postgres`,
      async stop() {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 5000);
          worker.on('message', (message: { type: string }) => {
            if (message.type === 'stopped') {
              clearTimeout(timer);
              resolve();
            }
          });
          worker.postMessage({ type: 'stop' });
        });
        await worker.terminate();
        await releaseLock();
      },
    };
  } catch (error) {
    await worker.terminate();
    await releaseLock();
    // PGlite aborts without a reason when the disk is full (found by `npm run chaos`): say it.
    const free = dataDir ? freeBytes(dataDir) : undefined;
    if (free !== undefined && free < LOW_DISK_BYTES) {
      throw new Error(
        `Embedded Postgres could not start: the disk of the data folder ${dataDir} has only ${Math.floor(free / 1024)} KiB free. ` +
          'Free some space and start again.',
        { cause: error },
      );
    }
    throw error;
  }
}

/** Below this much free space a failed start is blamed on the disk (a WAL segment is 16 MiB). */
const LOW_DISK_BYTES = 64 * 1024 * 1024;

function freeBytes(dir: string): number | undefined {
  try {
    const { bavail, bsize } = statfsSync(dir);
    return bavail * bsize;
  } catch {
    return undefined;
  }
}
