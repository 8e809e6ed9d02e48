import { V7Generator } from 'uuidv7';
import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';
import { receiptNumber } from './receipt-number.ts';

/** A UUID v7 at `iso` with the given random hex (19 digits after the version nibble). */
const v7 = (iso: string, random: string) => {
  const time = Date.parse(iso).toString(16).padStart(12, '0');
  const r = random.padStart(19, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${r.slice(0, 3)}-${(8 + (Number.parseInt(r[3]!, 16) & 3)).toString(16)}${r.slice(4, 7)}-${r.slice(7)}`;
};

describe('receipt numbers', () => {
  it('[P9] reads the UTC day and a short code from the payment id, the same everywhere', () => {
    const id = v7('2026-12-07T14:32:05.123Z', 'abc1234567890abcdef');
    expect(receiptNumber(id)).toMatch(/^261207-[0-9A-HJKMNP-TV-Z]{7}$/);
    expect(receiptNumber(id)).toBe(receiptNumber(id.toUpperCase()));
    // The same second and random bits: the same number; one second later: another.
    expect(receiptNumber(v7('2026-12-07T14:32:05.900Z', 'abc1234567890abcdef'))).toBe(receiptNumber(id));
    expect(receiptNumber(v7('2026-12-07T14:32:06.123Z', 'abc1234567890abcdef'))).not.toBe(receiptNumber(id));
    // Other bits after the version within the same millisecond (two devices): another number.
    expect(receiptNumber(v7('2026-12-07T14:32:05.123Z', 'abc1234577890abcdef'))).not.toBe(receiptNumber(id));
  });

  it('[P9] gives the ids one device makes within a millisecond distinct numbers', () => {
    // The generator newId uses, at one fixed millisecond: its count keeps the ids apart, whatever
    // the machine's clock does while the test runs.
    const device = new V7Generator();
    const now = Date.parse('2026-12-07T14:32:05.123Z');
    const ids = Array.from({ length: 2000 }, () => device.generateOrResetWithTs(now).toString());
    expect(new Set(ids.map(receiptNumber)).size).toBe(ids.length);
    expect(receiptNumber(newId())).toMatch(/^\d{6}-[0-9A-HJKMNP-TV-Z]{7}$/);
  });

  it('[P9] an id that is not a UUID v7 still gets a short number; anything else is shown as it is', () => {
    expect(receiptNumber('3b241101-e2bb-4255-8caf-4136c566a962')).toMatch(/^X-[0-9A-HJKMNP-TV-Z]{11}$/);
    expect(receiptNumber('not-an-id')).toBe('not-an-id');
  });
});
