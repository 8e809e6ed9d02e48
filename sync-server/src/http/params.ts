import { z } from 'zod';

/** `:id` path parameters are entity ids; anything else is a 400, never a database error. */
export const entityIdParam = z.object({ id: z.uuid('Must be a valid id') });
