/**
 * [P9] A payment's receipt number, short enough to read out at the counter, derived from the
 * payment's id so every device (offline too) and REST show the same number without asking
 * anyone: 'YYMMDD-' and seven characters of Crockford base32 ('261207-3F9K2QD').
 *
 * A payment's id is a UUID v7 made on the device that records it: 48 bits of its clock in
 * milliseconds, then random bits. The number holds the UTC day, the second within that day
 * (17 bits) and 18 bits that follow the id's version: ids one device makes within a
 * millisecond count up there, and each new millisecond starts them at random. Two payments get
 * the same number only if they were recorded in the same second and those 18 bits agree (one
 * chance in 262,144 for each such pair made on different devices or milliseconds). An id that is not a UUID v7 (made by another
 * program) takes its number from its first 56 bits instead.
 */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function base32(value: bigint, length: number): string {
  let text = '';
  let rest = value;
  for (let index = 0; index < length; index++) {
    text = CROCKFORD[Number(rest & 31n)] + text;
    rest >>= 5n;
  }
  return text;
}

export function receiptNumber(paymentId: string): string {
  const hex = paymentId.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return paymentId;
  if (hex[12] !== '7') return `X-${base32(BigInt(`0x${hex.slice(0, 14)}`), 11)}`;
  const ms = Number.parseInt(hex.slice(0, 12), 16);
  const day = new Date(ms).toISOString();
  const secondOfDay = BigInt(Math.floor((ms % 86_400_000) / 1000));
  // The low 18 bits of the 42 after the version and variant bits: Ranch's ids (the uuidv7
  // package) count there within a millisecond from a random start, other v7 ids are random.
  const random = BigInt(`0x${hex.slice(16, 24)}`) & 0x3ffffn;
  return `${day.slice(2, 4)}${day.slice(5, 7)}${day.slice(8, 10)}-${base32((secondOfDay << 18n) | random, 7)}`;
}
