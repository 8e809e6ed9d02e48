import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { LOOPBACK_PROXIES, parseProxyEntry } from './http/proxy-trust.ts';
import { mailSettings, type MailSettings } from './mail/settings.ts';
import { DEFAULT_PHOTO_QUOTA_BYTES } from './storage/photo-quota.ts';
import { DEFAULT_SYNC_LIMITS, type SyncLimits } from './sync/limits.ts';

const MiB = 1024 * 1024;

/** A whole number ≥ 1 (a limit of the sync socket, docs/sync-limits.md). */
function positive(fallback: number) {
  const message = 'must be a whole number, 1 or more';
  return z.coerce.number({ error: message }).int(message).min(1, message).default(fallback);
}

/** Configuration, parsed once at start-up; a bad value stops the server with a clear message. */
const schema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number (0-65535)' })
    .int('must be a port number (0-65535)')
    .min(0, 'must be a port number (0-65535)')
    .max(65535, 'must be a port number (0-65535)')
    .default(8787),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  RANCH_DATA_DIR: z.string().min(1).default('./.data'),
  RANCH_ADMIN_EMAIL: z.email('must be an e-mail address').optional(),
  RANCH_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  /** A file holding the password instead (one line; the final line break is not part of it). */
  RANCH_ADMIN_PASSWORD_FILE: z.string().min(1).optional(),
  /** 1: at this start, set the admin account's password from the settings again ([A9]). */
  RANCH_ADMIN_RESET: z
    .enum(['0', '1', ''], { error: 'must be 1 (reset the admin password at this start) or 0' })
    .default('0')
    .transform((value) => value === '1'),
  /** Extra origins allowed to make state-changing calls, comma separated (e.g. a dev server). */
  RANCH_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    ),
  /** Where the built PWA is; served with an SPA fallback. */
  RANCH_WEB_DIR: z.string().min(1).default('./dist/web'),
  /**
   * The reverse proxies in front (addresses or CIDR blocks, comma separated): from them,
   * X-Forwarded-For and X-Forwarded-Proto are believed ([A5], [A8]).
   */
  RANCH_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine(
      (entries) => entries.every((entry) => parseProxyEntry(entry)),
      'must be addresses or CIDR blocks, comma separated (e.g. 10.0.0.5,fd00::/8)',
    ),
  /** 1: a reverse proxy on this machine (loopback) stands in front; RANCH_TRUSTED_PROXIES for one elsewhere. */
  RANCH_TRUST_PROXY: z
    .enum(['0', '1', ''], { error: 'must be 1 (behind a reverse proxy) or 0' })
    .default('0')
    .transform((value) => value === '1'),
  /** [I7] What one user's uploaded photos may take, in MiB. */
  RANCH_PHOTO_QUOTA_MIB: positive(DEFAULT_PHOTO_QUOTA_BYTES / MiB),
  RANCH_SYNC_MAX_MESSAGE_MIB: positive(DEFAULT_SYNC_LIMITS.maxMessageBytes / MiB),
  RANCH_SYNC_SEND_BUFFER_MIB: positive(DEFAULT_SYNC_LIMITS.sendBufferBytes / MiB),
  RANCH_SYNC_MESSAGES_PER_SECOND: positive(DEFAULT_SYNC_LIMITS.messagesPerSecond),
  RANCH_SYNC_UPDATES_PER_SECOND: positive(DEFAULT_SYNC_LIMITS.updatesPerSecond),
  RANCH_SYNC_AWARENESS_PER_SECOND: positive(DEFAULT_SYNC_LIMITS.awarenessPerSecond),
  RANCH_SYNC_AWARENESS_STATE_BYTES: positive(DEFAULT_SYNC_LIMITS.awarenessStateBytes),
  RANCH_SYNC_AWARENESS_CLIENTS: positive(DEFAULT_SYNC_LIMITS.awarenessClients),
  RANCH_SYNC_CONNECTIONS_PER_SESSION: positive(DEFAULT_SYNC_LIMITS.connectionsPerSession),
  RANCH_SYNC_CONNECTIONS_PER_USER: positive(DEFAULT_SYNC_LIMITS.connectionsPerUser),
  RANCH_SYNC_ENTITIES_PER_UPDATE: positive(DEFAULT_SYNC_LIMITS.entitiesPerUpdate),
  RANCH_SYNC_INVALID_PER_MINUTE: positive(DEFAULT_SYNC_LIMITS.invalidPerMinute),
  RANCH_SYNC_ENCODE_MS_PER_SECOND: positive(DEFAULT_SYNC_LIMITS.encodeMsPerSecond),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  admin: { email: string; password: string; reset: boolean } | undefined;
  allowedOrigins: string[];
  webDir: string;
  trustProxy: boolean;
  /** The proxies whose forwarded headers are believed: RANCH_TRUSTED_PROXIES, and loopback with RANCH_TRUST_PROXY=1. */
  trustedProxies: string[];
  syncLimits: SyncLimits;
  photoQuotaBytes: number;
  /** [U17] [U18] SMTP for e-mailing account links (RANCH_SMTP_URL[_FILE], RANCH_MAIL_FROM); absent: not e-mailed. */
  mail: MailSettings | undefined;
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  const lines = parsed.success ? [] : parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  const password = adminPassword(env, lines);
  if (!env.RANCH_ADMIN_EMAIL !== !password) {
    lines.push('  RANCH_ADMIN_EMAIL and RANCH_ADMIN_PASSWORD (or RANCH_ADMIN_PASSWORD_FILE) must be set together');
  }
  if (env.RANCH_ADMIN_RESET === '1' && !password) {
    lines.push('  RANCH_ADMIN_RESET: needs RANCH_ADMIN_EMAIL and RANCH_ADMIN_PASSWORD (or RANCH_ADMIN_PASSWORD_FILE)');
  }
  const mail = mailSettings(env, lines);
  if (!parsed.success || lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  const value = parsed.data;
  return {
    port: value.PORT,
    host: value.HOST,
    databaseUrl: value.DATABASE_URL,
    dataDir: resolve(value.RANCH_DATA_DIR),
    admin:
      value.RANCH_ADMIN_EMAIL && password
        ? { email: value.RANCH_ADMIN_EMAIL.toLowerCase(), password, reset: value.RANCH_ADMIN_RESET }
        : undefined,
    allowedOrigins: value.RANCH_ALLOWED_ORIGINS,
    webDir: resolve(value.RANCH_WEB_DIR),
    trustProxy: value.RANCH_TRUST_PROXY,
    trustedProxies: [...value.RANCH_TRUSTED_PROXIES, ...(value.RANCH_TRUST_PROXY ? LOOPBACK_PROXIES : [])],
    photoQuotaBytes: value.RANCH_PHOTO_QUOTA_MIB * MiB,
    mail,
    syncLimits: {
      maxMessageBytes: value.RANCH_SYNC_MAX_MESSAGE_MIB * MiB,
      sendBufferBytes: value.RANCH_SYNC_SEND_BUFFER_MIB * MiB,
      messagesPerSecond: value.RANCH_SYNC_MESSAGES_PER_SECOND,
      updatesPerSecond: value.RANCH_SYNC_UPDATES_PER_SECOND,
      awarenessPerSecond: value.RANCH_SYNC_AWARENESS_PER_SECOND,
      awarenessStateBytes: value.RANCH_SYNC_AWARENESS_STATE_BYTES,
      awarenessClients: value.RANCH_SYNC_AWARENESS_CLIENTS,
      connectionsPerSession: value.RANCH_SYNC_CONNECTIONS_PER_SESSION,
      connectionsPerUser: value.RANCH_SYNC_CONNECTIONS_PER_USER,
      entitiesPerUpdate: value.RANCH_SYNC_ENTITIES_PER_UPDATE,
      invalidPerMinute: value.RANCH_SYNC_INVALID_PER_MINUTE,
      encodeMsPerSecond: value.RANCH_SYNC_ENCODE_MS_PER_SECOND,
    },
  };
}

/**
 * [A9] The admin password of RANCH_ADMIN_PASSWORD, or read from RANCH_ADMIN_PASSWORD_FILE
 * (a secret file of Docker, systemd's credentials, …), so it need not sit in the environment.
 */
function adminPassword(env: NodeJS.ProcessEnv, problems: string[]): string | undefined {
  const file = env.RANCH_ADMIN_PASSWORD_FILE;
  if (!file) return env.RANCH_ADMIN_PASSWORD || undefined;
  if (env.RANCH_ADMIN_PASSWORD) {
    problems.push('  RANCH_ADMIN_PASSWORD_FILE: set it or RANCH_ADMIN_PASSWORD, not both');
    return undefined;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`  RANCH_ADMIN_PASSWORD_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return undefined;
  }
  const password = text.replace(/\r?\n$/, '');
  if (password.length < 8) {
    problems.push('  RANCH_ADMIN_PASSWORD_FILE: the password in it must be at least 8 characters');
    return undefined;
  }
  return password;
}
