// `npm run rebuild-document` (docs/sync-rules.md "Document epochs"), with the server's own
// configuration: DATABASE_URL, else the data folder RANCH_DATA_DIR (./.data). Every server
// must be stopped: the data folder's lock, or no server connection in pg_stat_activity, says so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, SERVER_APPLICATION_NAME, type Database, type Tx } from '../db/client.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { ConfigError, loadConfig } from '../env.ts';
import { rebuildDocument, type RebuildSummary } from './rebuild-document.ts';

const USAGE = 'Usage: npm run rebuild-document   (with every Ranch server stopped)';

/** The command cannot run here, said in a sentence; nothing was changed. */
class MaintenanceRefused extends Error {}

async function open(databaseUrl: string | undefined, dataDir: string): Promise<Database> {
  if (databaseUrl) {
    const db = await openDatabase({ url: databaseUrl, max: 1, applicationName: 'ranch-maintenance' });
    if (db.singleSession) {
      await db.close();
      throw new MaintenanceRefused('DATABASE_URL names an embedded database: stop its server and run this with RANCH_DATA_DIR instead');
    }
    return db;
  }
  if (!existsSync(join(dataDir, 'pg')))
    throw new MaintenanceRefused(`No ranch in ${dataDir} (it has no pg folder): set RANCH_DATA_DIR, or DATABASE_URL`);
  try {
    return await openDatabase({ embedded: true, dataDir });
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new MaintenanceRefused(
        `A running server holds ${dataDir}: stop it first, then run npm run rebuild-document again. Nothing was changed.`,
      );
    }
    throw error;
  }
}

/** Refuses while any Ranch server is connected to the Postgres of DATABASE_URL (client.ts SERVER_APPLICATION_NAME). */
async function refuseRunningServers(tx: Tx): Promise<void> {
  const [row] = await tx<{ count: string }[]>`
    select count(*) as count from pg_stat_activity
    where datname = current_database() and application_name = ${SERVER_APPLICATION_NAME} and pid <> pg_backend_pid()`;
  const connections = Number(row?.count ?? 0);
  if (connections > 0) {
    throw new MaintenanceRefused(
      `A Ranch server is connected to this database (${connections} connection${connections === 1 ? '' : 's'}): ` +
        'stop every server instance first, then run npm run rebuild-document again. Nothing was changed.',
    );
  }
}

const number = (value: number) => value.toLocaleString('en-US');

function report(summary: RebuildSummary, where: string): string {
  const kept = Object.entries(summary.kept).filter(([, count]) => count > 0);
  const total = kept.reduce((sum, [, count]) => sum + count, 0);
  const lines = [
    `Rebuilt the document ${summary.name} in ${where}:`,
    `  full state a new device downloads: ${number(summary.bytesBefore)} bytes before, ${number(summary.bytesAfter)} bytes after`,
    `  records kept: ${number(total)}${kept.length > 0 ? ` (${kept.map(([collection, count]) => `${number(count)} ${collection}`).join(', ')})` : ''}`,
    `  records dropped as invalid: ${summary.dropped.length}`,
    ...summary.dropped.map(({ collection, id, problem }) => `    ${collection} ${id}: ${problem}`),
    `  log entries folded into it: ${number(summary.foldedUpdates)}; change history kept whole (${number(summary.historyRows)} rows)`,
    `  epoch: ${summary.epoch} (was ${summary.previousEpoch === '' ? 'the first' : summary.previousEpoch})`,
    'Devices take the rebuilt document when they next connect (the app carries its unsent changes over);',
    'stock y-websocket clients holding the old one are closed with 4409 and must start from an empty document.',
    'Start the server: npm start',
  ];
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  if (argv.length > 0) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const where = config.databaseUrl ? 'the Postgres of DATABASE_URL' : `the data folder ${config.dataDir}`;
  const db = await open(config.databaseUrl, config.dataDir);
  try {
    const summary = await db.sql.begin(async (tx) => {
      // Checked under the document's row lock too (rebuildDocument takes it first): a server
      // that started meanwhile and loaded the old document fails the rebuild, not the ranch.
      if (config.databaseUrl) await refuseRunningServers(tx);
      const result = await rebuildDocument(tx);
      if (config.databaseUrl) await refuseRunningServers(tx);
      return result;
    });
    if (!summary) {
      console.log(`There is no ranch document in ${where} yet: nothing to rebuild.`);
      return 0;
    }
    console.log(report(summary, where));
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = [ConfigError, MaintenanceRefused].some((kind) => error instanceof kind);
    console.error(known || !(error instanceof Error) ? String((error as Error).message ?? error) : error);
    process.exit(1);
  },
);
