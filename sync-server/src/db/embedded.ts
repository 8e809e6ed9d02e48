import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export type EmbeddedPostgres = {
  /** postgres:// URL of the loopback socket in front of PGlite. */
  url: string;
  stop(): Promise<void>;
};

/**
 * Starts PGlite in a worker thread. `dataDir` undefined keeps the database in memory (tests);
 * otherwise the data lives in `<dataDir>/pg` and a lock file stops a second server from
 * opening the same folder, which would silently lose committed rows.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined): Promise<EmbeddedPostgres> {
  const releaseLock = dataDir ? lockDataDir(dataDir) : () => {};
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
        releaseLock();
      },
    };
  } catch (error) {
    await worker.terminate();
    releaseLock();
    throw error;
  }
}

function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(lockPath, 'utf8'));
      if (holder && isRunning(holder)) {
        throw new Error(`The data folder ${dataDir} is in use by another Ranch server (pid ${holder}).`);
      }
      // The holder died without cleaning up (kill -9): the lock is stale.
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data folder ${dataDir}.`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
