import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Sql } from '../db/client.ts';
import { isSecureRequest } from '../http/origin.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';

/**
 * The device cookie ([A5]; OWASP "Slow Down Online Guessing Attacks with Device Cookies"):
 * a browser that signed in to an account gets a random device id signed for that account,
 * and its later sign-ins to the account are judged by that device's own failures only
 * (login-limits.ts), so nobody spraying the account or the address keeps its owner out.
 *
 * The signature is an HMAC of the e-mail and the device id with a secret every instance
 * shares (`server_secrets`, made on first use, left out of backups). The e-mail is not in
 * the cookie: the one typed at sign-in is what the signature is checked against, so a
 * cookie signed for another account, or for an older e-mail, counts for nothing. One
 * browser keeps entries for its last few accounts (a shared office computer).
 *
 * HttpOnly, SameSite=Strict (only the sign-in form, same-origin, needs it), for a year;
 * like the session cookie ([A8]) Secure and `__Host-` named over HTTPS through a trusted proxy.
 */
export const DEVICE_COOKIE = 'ranch_device';
export const SECURE_DEVICE_COOKIE = '__Host-ranch_device';
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** Accounts one browser keeps an entry for; the oldest drops out. */
export const DEVICE_COOKIE_ACCOUNTS = 5;

const SECRET_NAME = 'device-cookie';
const ENTRY = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const secrets = new WeakMap<Sql, Promise<Buffer>>();

/** The shared signing secret, made by whichever instance needs it first. */
export function deviceCookieSecret(sql: Sql): Promise<Buffer> {
  let secret = secrets.get(sql);
  if (!secret) {
    secret = (async () => {
      await sql`insert into server_secrets (name, value) values (${SECRET_NAME}, ${randomBytes(32)}) on conflict (name) do nothing`;
      const [row] = await sql<{ value: Uint8Array }[]>`select value from server_secrets where name = ${SECRET_NAME}`;
      if (!row) throw new Error('The device cookie secret could not be stored');
      return Buffer.from(row.value);
    })();
    secret.catch(() => secrets.delete(sql));
    secrets.set(sql, secret);
  }
  return secret;
}

function sign(secret: Buffer, account: string, device: string): string {
  return createHmac('sha256', secret).update(`ranch-device\n${account}\n${device}`).digest('base64url');
}

function entries(c: Context): { device: string; mac: string }[] {
  // Both names: a browser that signed in over HTTP and later over HTTPS holds both.
  const values = [getCookie(c, SECURE_DEVICE_COOKIE), getCookie(c, DEVICE_COOKIE)];
  return values
    .flatMap((value) => (value ?? '').split('~').slice(0, DEVICE_COOKIE_ACCOUNTS))
    .flatMap((entry) => {
      const match = ENTRY.exec(entry);
      return match?.[1] && match[2] ? [{ device: match[1], mac: match[2] }] : [];
    });
}

function signedFor(secret: Buffer, account: string, entry: { device: string; mac: string }): boolean {
  const expected = Buffer.from(sign(secret, account, entry.device));
  const given = Buffer.from(entry.mac);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The device id of the request's device cookie signed for `account`, if it carries one. */
export async function knownDevice(c: Context, sql: Sql, account: string): Promise<string | undefined> {
  const list = entries(c);
  if (list.length === 0) return undefined;
  const secret = await deviceCookieSecret(sql);
  return list.find((entry) => signedFor(secret, account, entry))?.device;
}

/** After a successful sign-in: this account's entry first (its device id kept), then the others. */
export async function setDeviceCookie(c: Context, sql: Sql, account: string, trustProxy: ProxyTrust): Promise<void> {
  const secret = await deviceCookieSecret(sql);
  const list = entries(c);
  const device = list.find((entry) => signedFor(secret, account, entry))?.device ?? randomBytes(16).toString('base64url');
  const others = list.filter((entry) => entry.device !== device);
  const value = [{ device, mac: sign(secret, account, device) }, ...others]
    .slice(0, DEVICE_COOKIE_ACCOUNTS)
    .map((entry) => `${entry.device}.${entry.mac}`)
    .join('~');
  const secure = isSecureRequest(c, trustProxy);
  setCookie(c, secure ? SECURE_DEVICE_COOKIE : DEVICE_COOKIE, value, {
    httpOnly: true,
    sameSite: 'Strict',
    secure,
    path: '/',
    maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
  });
}
