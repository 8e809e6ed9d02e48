import { ConfigError, loadConfig } from './env.ts';
import { startServer } from './server.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer({
    database: config.databaseUrl ? { url: config.databaseUrl } : { embedded: true, dataDir: config.dataDir },
    port: config.port,
    host: config.host,
    admin: config.admin,
    allowedOrigins: config.allowedOrigins,
    webDir: config.webDir,
    trustProxy: config.trustProxy,
    syncLimits: config.syncLimits,
  });
  const where = config.databaseUrl ? 'Postgres from DATABASE_URL' : `embedded Postgres in ${config.dataDir}`;
  console.log(`Ranch is listening on ${server.url} (${where})`);
  if (!config.admin) {
    console.log('No RANCH_ADMIN_EMAIL/RANCH_ADMIN_PASSWORD set: no admin account was ensured.');
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
