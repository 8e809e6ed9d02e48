import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../constants.ts';
import { MONEY_MESSAGES, parseMoney } from '../money.ts';

// In a browser (page or worker) the server's Content-Security-Policy allows no eval: zod
// would try `new Function` once to compile its object parsers, be refused, and report a
// violation. Parsing without that compilation is what it falls back to anyway. The server
// (Node, no CSP) keeps the compiled parsers.
if ('document' in globalThis || 'WorkerGlobalScope' in globalThis) z.config({ jitless: true });

/** Blank form values ('' or whitespace) mean "not given" and are stored as null. */
export function blankToNull(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  return value;
}

export const entityId = z.uuid('Must be a valid id');

/** A required reference chosen from a list; '' (nothing chosen) gets the field's message. */
export function requiredRef(message: string) {
  return z.string({ error: message }).trim().min(1, message).pipe(entityId);
}

export const optionalRef = z.preprocess(blankToNull, entityId.nullable());

/** Control characters (NUL above all, which Postgres text cannot hold) have no place in a name. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const NO_CONTROL_CHARACTERS = { message: 'Must not contain control characters' };

export function requiredName(message: string) {
  return z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(MAX_NAME_LENGTH, `Must be at most ${MAX_NAME_LENGTH} characters`)
    .refine((value) => !/[\n\r\t]/.test(value) && !CONTROL_CHARACTERS.test(value), NO_CONTROL_CHARACTERS);
}

/**
 * Money typed as "$1,234.5" or sent as "1234.50" or 1234.5; stored as "1234.50" ([S14],
 * `parseMoney`): anything else is refused with what is allowed, never rewritten.
 */
export const money = z.preprocess(
  (value) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value),
  z.string({ error: MONEY_MESSAGES.notAnAmount }).transform((value, context) => {
    const reading = parseMoney(value);
    if (reading.ok) return reading.value;
    context.issues.push({ code: 'custom', message: reading.message, input: value });
    return z.NEVER;
  }),
);

export const optionalMoney = z.preprocess(blankToNull, money.nullable());

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A calendar date; accepts "2024-05-01" or a full ISO timestamp, stores "2024-05-01". */
export const isoDate = z
  .string({ error: 'Must be a date' })
  .max(40, 'Must be a date')
  .refine(
    (value) => {
      const match = ISO_DATE.exec(value);
      if (!match) return false;
      const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
      return date.getUTCMonth() === Number(match[2]) - 1 && date.getUTCDate() === Number(match[3]);
    },
    { message: 'Must be a date', abort: true },
  )
  .transform((value) => value.slice(0, 10));

export const optionalDate = z.preprocess(blankToNull, isoDate.nullable());

/** Free text (notes, memos): line breaks and tabs are fine, other control characters are not. */
export const optionalText = (max: number) =>
  z.preprocess(
    blankToNull,
    z
      .string()
      .trim()
      .max(max, `Must be at most ${max} characters`)
      .refine((value) => !CONTROL_CHARACTERS.test(value), NO_CONTROL_CHARACTERS)
      .nullable(),
  );

/** A value the form must have: blank gets `message`; anything else is checked by `schema`. */
export function required<Schema extends z.ZodType>(message: string, schema: Schema) {
  return z
    .preprocess(
      blankToNull,
      z.any().refine((value) => value !== null, { message, abort: true }),
    )
    .pipe(schema);
}
