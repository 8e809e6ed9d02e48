import { timingSafeEqual } from 'node:crypto';
import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

/**
 * Tokens of the setup address and of account links ([A14], [U17], [U18]): 160 random bits,
 * base32 like session tokens; only their SHA-256 is kept.
 */
export function newLinkToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

/** Whether `value` has a token's shape; anything else is refused before any lookup. */
export function isLinkToken(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z2-7]{32}$/.test(value);
}

export function hashLinkToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** Compares two tokens' hashes in constant time. */
export function sameToken(hash: string, candidate: string): boolean {
  const a = Buffer.from(hash, 'utf8');
  const b = Buffer.from(hashLinkToken(candidate), 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
