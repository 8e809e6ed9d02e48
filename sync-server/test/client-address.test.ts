import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress, normalizeAddress } from '../src/auth/client-address.ts';
import { proxyTrust } from '../src/http/proxy-trust.ts';

/** `true`: a proxy on this machine (RANCH_TRUST_PROXY=1); a list: RANCH_TRUSTED_PROXIES. */
async function addressOf(trusted: boolean | string[], remoteAddress: string | undefined, forwardedFor?: string): Promise<string> {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, proxyTrust(trusted))));
  const headers: Record<string, string> = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  const env = remoteAddress === undefined ? {} : { incoming: { socket: { remoteAddress } } };
  const response = await app.request('/', { headers }, env);
  return response.text();
}

describe('[A5] the client address failed sign-ins are counted under', () => {
  it("is the socket's peer, whatever X-Forwarded-For claims, unless the proxy is trusted", async () => {
    expect(await addressOf(false, '10.1.2.3', '203.0.113.9')).toBe('10.1.2.3');
    expect(await addressOf(false, '::ffff:10.1.2.3')).toBe('10.1.2.3');
  });

  it('is the entry our trusted proxy appended (the right-most), not one the client wrote', async () => {
    const proxy = ['10.0.0.1'];
    expect(await addressOf(proxy, '10.0.0.1', '6.6.6.6, 203.0.113.9')).toBe('203.0.113.9');
    expect(await addressOf(proxy, '::ffff:10.0.0.1', ' 203.0.113.9 ')).toBe('203.0.113.9');
    expect(await addressOf(proxy, '10.0.0.1')).toBe('10.0.0.1');
    expect(await addressOf(proxy, '10.0.0.1', '')).toBe('10.0.0.1');
  });

  it('[N7] believes X-Forwarded-For only from a peer in the trusted list (addresses and CIDR blocks)', async () => {
    expect(await addressOf(['10.0.0.0/24', 'fd00::/8'], '10.0.0.77', '203.0.113.9')).toBe('203.0.113.9');
    expect(await addressOf(['10.0.0.0/24', 'fd00::/8'], 'fd00::5', '203.0.113.9')).toBe('203.0.113.9');
    // Anyone else reaching the port directly chooses nothing.
    expect(await addressOf(['10.0.0.0/24'], '10.0.1.1', '203.0.113.9')).toBe('10.0.1.1');
    expect(await addressOf(['10.0.0.1'], '192.0.2.4', '203.0.113.9')).toBe('192.0.2.4');
  });

  it('[N7] RANCH_TRUST_PROXY=1 trusts a proxy on this machine only', async () => {
    expect(await addressOf(true, '127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    expect(await addressOf(true, '::ffff:127.0.0.1', '203.0.113.9')).toBe('203.0.113.9');
    expect(await addressOf(true, '::1', '203.0.113.9')).toBe('203.0.113.9');
    expect(await addressOf(true, '10.0.0.1', '203.0.113.9')).toBe('10.0.0.1');
  });

  it('counts IPv6 clients per /64', () => {
    expect(normalizeAddress('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(normalizeAddress('2001:DB8:1:2::99')).toBe('2001:db8:1:2::/64');
    expect(normalizeAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(normalizeAddress('::1')).toBe('0:0:0:0::/64');
    expect(normalizeAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(normalizeAddress('not:an:address')).toBe('not:an:address');
  });

  it('is "unknown" when there is no socket to ask', async () => {
    expect(await addressOf(false, undefined)).toBe('unknown');
  });
});
