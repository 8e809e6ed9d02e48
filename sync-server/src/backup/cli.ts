// `npm run backup [FILE]` and `npm run restore FILE [--force]` (docs/backups.md), with the
// server's own configuration: DATABASE_URL, else the data folder RANCH_DATA_DIR (./.data).
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { ConfigError, loadConfig } from '../env.ts';
import { BackupFailed, restoreInto, takeBackup } from './commands.ts';
import { BackupFileError } from './format.ts';
import { RestoreRefused } from './restore.ts';

const USAGE = 'Usage: npm run backup [FILE]  |  npm run restore FILE [--force]';

function total(rows: Record<string, number>): string {
  const shown = ['users', 'horses', 'owners', 'buyers', 'sales', 'payments', 'objects', 'doc_updates'];
  return shown.map((table) => `${rows[table] ?? 0} ${table === 'objects' ? 'photos' : table.replace('_', ' ')}`).join(', ');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const force = rest.includes('--force');
  const files = rest.filter((arg) => arg !== '--force');
  if (rest.some((arg) => arg.startsWith('-') && arg !== '--force') || files.length > 1) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const source = { databaseUrl: config.databaseUrl, dataDir: config.dataDir };
  const where = config.databaseUrl ? 'the Postgres of DATABASE_URL' : `the data folder ${config.dataDir}`;
  if (command === 'backup' && !force) {
    const started = performance.now();
    const result = await takeBackup(source, files[0]);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Backed up ${where} (through ${result.via}) to ${result.file}: ${(result.bytes / 1024).toFixed(0)} KiB in ${seconds} s`);
    console.log(`  ${total(result.rows)}; checked whole`);
    return 0;
  }
  if (command === 'restore' && files[0]) {
    const result = await restoreInto(source, files[0], { force });
    console.log(`Restored the backup of ${result.createdAt} into ${where}${result.replaced ? ' (replacing what it held)' : ''}`);
    console.log(`  ${total(result.rows)}; everyone signs in again. Start the server: npm start`);
    if (result.dropped.length > 0) {
      console.log('  Not restored: the file holds what Ranch never writes into a backup, so it was altered or not made by Ranch:');
      for (const line of result.dropped) console.log(`  - ${line}`);
    }
    console.log(`  Admin accounts: ${result.admins.join(', ') || 'none'}. Check that you know each one.`);
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Refusals and failures are told in a sentence; anything unexpected with its stack.
    const known = [ConfigError, DataDirInUseError, BackupFileError, RestoreRefused, BackupFailed].some((kind) => error instanceof kind);
    console.error(known || !(error instanceof Error) ? String((error as Error).message ?? error) : error);
    process.exit(1);
  },
);
