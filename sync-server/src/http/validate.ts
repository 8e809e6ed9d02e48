import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { invalidInput } from './errors.ts';

/**
 * zod validation with our 400 body. The stock hook would dump the whole ZodError.
 * Malformed JSON is rejected by the validator itself with a 400.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(target: Target, schema: Schema) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw invalidInput(result.error as unknown as z.ZodError);
  });
}
