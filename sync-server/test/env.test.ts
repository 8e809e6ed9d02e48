import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/env.ts';
import { DEFAULT_SYNC_LIMITS } from '../src/sync/limits.ts';

describe('configuration', () => {
  it('has defaults that need nothing but Node', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8787, host: '0.0.0.0', databaseUrl: undefined, admin: undefined, allowedOrigins: [] });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db/ranch',
      RANCH_ADMIN_EMAIL: 'Boss@Ranch.test',
      RANCH_ADMIN_PASSWORD: 'long enough',
      RANCH_ALLOWED_ORIGINS: 'http://localhost:5173, https://ranch.example',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db/ranch',
      admin: { email: 'boss@ranch.test', password: 'long enough' },
      allowedOrigins: ['http://localhost:5173', 'https://ranch.example'],
    });
  });

  it('stops with a message naming each bad value', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', RANCH_ADMIN_EMAIL: 'a@b.test' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: must be a port number/);
    expect(attempt).toThrow(/DATABASE_URL: must start with postgres/);
    expect(attempt).toThrow(/RANCH_ADMIN_EMAIL and RANCH_ADMIN_PASSWORD \(or RANCH_ADMIN_PASSWORD_FILE\) must be set together/);
  });
});

describe('[A9] the admin settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranch-env-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  const EMAIL = { RANCH_ADMIN_EMAIL: 'boss@ranch.test' };

  it('reads the password from RANCH_ADMIN_PASSWORD_FILE, without its final line break', () => {
    const config = loadConfig({ ...EMAIL, RANCH_ADMIN_PASSWORD_FILE: file('pw', 'a long password\n') });
    expect(config.admin).toEqual({ email: 'boss@ranch.test', password: 'a long password', reset: false });
  });

  it('refuses both, a missing file and a short password in it', () => {
    expect(() =>
      loadConfig({ ...EMAIL, RANCH_ADMIN_PASSWORD: 'long enough', RANCH_ADMIN_PASSWORD_FILE: file('a', 'long enough') }),
    ).toThrow(/set it or RANCH_ADMIN_PASSWORD, not both/);
    expect(() => loadConfig({ ...EMAIL, RANCH_ADMIN_PASSWORD_FILE: join(dir, 'none') })).toThrow(/cannot read .*none \(ENOENT\)/);
    expect(() => loadConfig({ ...EMAIL, RANCH_ADMIN_PASSWORD_FILE: file('short', 'short\n') })).toThrow(/at least 8 characters/);
  });

  it('resets only with RANCH_ADMIN_RESET=1, which needs the account settings', () => {
    expect(loadConfig({ ...EMAIL, RANCH_ADMIN_PASSWORD: 'long enough' }).admin?.reset).toBe(false);
    expect(loadConfig({ ...EMAIL, RANCH_ADMIN_PASSWORD: 'long enough', RANCH_ADMIN_RESET: '1' }).admin?.reset).toBe(true);
    expect(() => loadConfig({ RANCH_ADMIN_RESET: '1' })).toThrow(/RANCH_ADMIN_RESET: needs RANCH_ADMIN_EMAIL/);
    expect(() => loadConfig({ ...EMAIL, RANCH_ADMIN_PASSWORD: 'long enough', RANCH_ADMIN_RESET: 'yes' })).toThrow(
      /RANCH_ADMIN_RESET: must be 1/,
    );
  });
});

describe('RANCH_TRUST_PROXY', () => {
  it('is off unless set to 1, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ RANCH_TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ RANCH_TRUST_PROXY: '1' }).trustProxy).toBe(true);
    expect(() => loadConfig({ RANCH_TRUST_PROXY: 'yes' })).toThrow(/RANCH_TRUST_PROXY: must be 1 \(behind a reverse proxy\) or 0/);
  });

  it('[N7] trusts the loopback proxy with 1, and the addresses and blocks of RANCH_TRUSTED_PROXIES', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ RANCH_TRUST_PROXY: '1' }).trustedProxies).toEqual(['127.0.0.0/8', '::1']);
    expect(loadConfig({ RANCH_TRUSTED_PROXIES: ' 10.0.0.5, fd00::/8 ' }).trustedProxies).toEqual(['10.0.0.5', 'fd00::/8']);
    for (const bad of ['proxy.lan', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129']) {
      expect(() => loadConfig({ RANCH_TRUSTED_PROXIES: bad })).toThrow(/RANCH_TRUSTED_PROXIES: must be addresses or CIDR blocks/);
    }
  });
});

describe('RANCH_SYNC_* limits', () => {
  it('default to DEFAULT_SYNC_LIMITS and read MiB and counts', () => {
    expect(loadConfig({}).syncLimits).toEqual(DEFAULT_SYNC_LIMITS);
    const config = loadConfig({
      RANCH_SYNC_MAX_MESSAGE_MIB: '32',
      RANCH_SYNC_SEND_BUFFER_MIB: '8',
      RANCH_SYNC_CONNECTIONS_PER_SESSION: '3',
    });
    expect(config.syncLimits).toMatchObject({
      maxMessageBytes: 32 * 1024 * 1024,
      sendBufferBytes: 8 * 1024 * 1024,
      connectionsPerSession: 3,
    });
  });

  it('stop with a message naming a bad value', () => {
    expect(() => loadConfig({ RANCH_SYNC_MESSAGES_PER_SECOND: '0' })).toThrow(
      /RANCH_SYNC_MESSAGES_PER_SECOND: must be a whole number, 1 or more/,
    );
    expect(() => loadConfig({ RANCH_SYNC_MAX_MESSAGE_MIB: 'lots' })).toThrow(
      /RANCH_SYNC_MAX_MESSAGE_MIB: must be a whole number, 1 or more/,
    );
    expect(() => loadConfig({ RANCH_SYNC_AWARENESS_CLIENTS: '2.5' })).toThrow(
      /RANCH_SYNC_AWARENESS_CLIENTS: must be a whole number, 1 or more/,
    );
  });
});

describe('RANCH_PHOTO_QUOTA_MIB', () => {
  it('[I7] defaults to 1 GiB per user, reads MiB, and refuses anything but a whole number', () => {
    expect(loadConfig({}).photoQuotaBytes).toBe(1024 * 1024 * 1024);
    expect(loadConfig({ RANCH_PHOTO_QUOTA_MIB: '200' }).photoQuotaBytes).toBe(200 * 1024 * 1024);
    expect(() => loadConfig({ RANCH_PHOTO_QUOTA_MIB: 'plenty' })).toThrow(/RANCH_PHOTO_QUOTA_MIB: must be a whole number, 1 or more/);
  });
});

describe('[U17] [U18] the mail settings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranch-mail-env-'));
  const FROM = { RANCH_MAIL_FROM: 'Sunny Acres <office@sunny-acres.test>' };

  it('are off unless set: links are not e-mailed', () => {
    expect(loadConfig({}).mail).toBeUndefined();
  });

  it('read RANCH_SMTP_URL and RANCH_MAIL_FROM, or the URL from RANCH_SMTP_URL_FILE without its line break', () => {
    expect(loadConfig({ RANCH_SMTP_URL: 'smtp://mail.example.com:587', ...FROM }).mail).toEqual({
      url: 'smtp://mail.example.com:587',
      from: 'Sunny Acres <office@sunny-acres.test>',
    });
    expect(loadConfig({ RANCH_SMTP_URL: 'smtps://u:p@mail.example.com:465', RANCH_MAIL_FROM: 'office@sunny-acres.test' }).mail).toEqual({
      url: 'smtps://u:p@mail.example.com:465',
      from: 'office@sunny-acres.test',
    });
    const path = join(dir, 'smtp-url');
    writeFileSync(path, 'smtps://ranch:s3cret@mail.example.com:465\n', { mode: 0o600 });
    expect(loadConfig({ RANCH_SMTP_URL_FILE: path, ...FROM }).mail?.url).toBe('smtps://ranch:s3cret@mail.example.com:465');
  });

  it('stop with a clear message, never repeating the URL (it may hold a password)', () => {
    const fails = (env: NodeJS.ProcessEnv, message: RegExp) => {
      let thrown: unknown;
      try {
        loadConfig(env);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toMatch(message);
      expect((thrown as Error).message).not.toContain('s3cret');
    };
    fails(
      { RANCH_SMTP_URL: 'smtp://mail.example.com' },
      /RANCH_SMTP_URL \(or RANCH_SMTP_URL_FILE\) and RANCH_MAIL_FROM must be set together/,
    );
    fails(FROM, /must be set together/);
    fails({ RANCH_SMTP_URL: 'https://u:s3cret@mail.example.com', ...FROM }, /RANCH_SMTP_URL: must be smtp:\/\/host:587 or smtps:/);
    fails({ RANCH_SMTP_URL: 'mail.example.com:s3cret', ...FROM }, /RANCH_SMTP_URL: must be smtp:\/\/host:587/);
    fails({ RANCH_SMTP_URL: 'smtp://mail.example.com', RANCH_MAIL_FROM: 'the office' }, /RANCH_MAIL_FROM: must be an e-mail address/);
    fails(
      { RANCH_SMTP_URL: 'smtp://a.test', RANCH_SMTP_URL_FILE: join(dir, 'smtp-url'), ...FROM },
      /RANCH_SMTP_URL_FILE: set it or RANCH_SMTP_URL, not both/,
    );
    fails({ RANCH_SMTP_URL_FILE: join(dir, 'none'), ...FROM }, /RANCH_SMTP_URL_FILE: cannot read .*none \(ENOENT\)/);
  });
});
