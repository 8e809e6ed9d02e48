import { DataDirInUseError } from './db/data-dir-lock.ts';
import { ConfigError, loadConfig, type Config } from './env.ts';
import { isLoopbackHost } from './http/proxy-trust.ts';
import { startServer } from './server.ts';
import type { AdminBootstrap } from './auth/users.ts';
import { shownAddresses } from './network-addresses.ts';

const STOP_LIMIT_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer({
    database: config.databaseUrl ? { url: config.databaseUrl } : { embedded: true, dataDir: config.dataDir },
    port: config.port,
    host: config.host,
    admin: config.admin,
    allowedOrigins: config.allowedOrigins,
    webDir: config.webDir,
    trustProxy: config.trustedProxies,
    syncLimits: config.syncLimits,
    photoQuotaBytes: config.photoQuotaBytes,
    mail: config.mail,
  });
  const where = config.databaseUrl ? 'Postgres from DATABASE_URL' : `embedded Postgres in ${config.dataDir}`;
  console.log(`Ranch is listening on ${server.url} (${where})`);
  warnAboutProxies(config);
  if (config.mail) console.log(`Invitation and password links are e-mailed from ${config.mail.from}`);
  if (server.admin) logAdminBootstrap(server.admin);
  if (server.setupPath) {
    // [A14] The ranch has no Admin: the one-time address that sets it up in a browser.
    const [here, ...network] = shownAddresses(server.url, config.host, server.setupPath);
    console.log(
      `\nSet up the ranch: open this address in a browser on this computer (it works until the owner's account exists):\n  ${here}`,
    );
    if (network.length > 0) console.log(`or from another device on the same network:\n${network.map((a) => `  ${a}`).join('\n')}`);
    console.log('');
  }
  // Graceful stop (docs/architecture.md "Stopping"), bounded: past STOP_LIMIT_MS, or at a
  // second signal (Ctrl-C again), the process exits at once; nothing acknowledged is lost
  // either way, as every acknowledgement follows its commit.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      console.log(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    stopping = true;
    console.log(`${signal}: stopping (finishing the changes in flight, closing sync sockets with 1012)`);
    setTimeout(() => {
      console.error(`Not stopped after ${STOP_LIMIT_MS / 1000} s: exiting without waiting`);
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
    try {
      await server.close();
    } catch (error) {
      console.error('Stopping failed:', error);
      process.exit(1);
    }
    console.log('Stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** [A8] Forwarded headers are believed only from the trusted proxies: says which, and when the port is open to others too. */
function warnAboutProxies({ trustedProxies, host }: Config): void {
  if (trustedProxies.length === 0) return;
  console.log(`X-Forwarded-For and X-Forwarded-Proto are believed only from ${trustedProxies.join(', ')}.`);
  if (!isLoopbackHost(host)) {
    console.warn(
      `HOST is ${host}: clients can reach the server directly, not only through the proxy. ` +
        'Their forwarded headers are ignored, but listen on HOST=127.0.0.1 (or the proxy-facing address) if only the proxy should reach it.',
    );
  }
}

/** [A9] What the admin settings did; a reset, or a reset flag left set, is said loudly. */
function logAdminBootstrap({ outcome, email }: AdminBootstrap): void {
  switch (outcome) {
    case 'refused':
      console.warn(
        `RANCH_ADMIN_EMAIL names ${email}, an account that is not an Admin and was not made by these settings: it was not made Admin. ` +
          'Sign in as an Admin to change its role, or set RANCH_ADMIN_EMAIL to another address.',
      );
      return;
    case 'inactive':
      console.warn(
        `The admin account of RANCH_ADMIN_EMAIL (${email}) was deactivated by an Admin and stays so; ` +
          'an Admin reactivates it on the Users screen.',
      );
      return;
    case 'kept':
      console.log(
        `Admin account ${email}: exists; its password is its owner's (RANCH_ADMIN_PASSWORD applies only when it is created, ` +
          'or once with RANCH_ADMIN_RESET=1).',
      );
      return;
    case 'reset':
      console.warn(
        `*** RANCH_ADMIN_RESET=1: the admin account ${email} now has the password of the settings, is an Admin, ` +
          'and every one of its sessions ended. Remove RANCH_ADMIN_RESET from the settings. ***',
      );
      return;
    case 'reset-before':
      console.warn(
        `*** RANCH_ADMIN_RESET=1 is still set, but this password was applied by an earlier reset: the admin account ${email} ` +
          'was left as it is. Remove RANCH_ADMIN_RESET from the settings; to reset again, give a new password. ***',
      );
      return;
    default:
      console.log(`Admin account ${email}: ${outcome}.`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DataDirInUseError ? error.message : error);
  process.exit(1);
});
