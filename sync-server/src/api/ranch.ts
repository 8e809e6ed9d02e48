import { Hono } from 'hono';
import { requireRole } from '../auth/middleware.ts';
import type { Sql } from '../db/client.ts';
import { apiError } from '../http/errors.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { findObjectMeta } from '../storage/objects.ts';
import {
  NO_RANCH_DETAILS,
  OBJECT_PATH_PREFIX,
  RANCH_LOGO_MESSAGE,
  ranchDetailsInput,
  type RanchDetails,
  type RanchDetailsFields,
} from '../../../shared/index.ts';

/** The `ranch_settings` row of each detail ('name' is the row the first-run page writes). */
const SETTING_OF = { name: 'name', address: 'address', phone: 'phone', email: 'email', logoUrl: 'logo' } as const;
type Detail = keyof typeof SETTING_OF;
const DETAILS = Object.keys(SETTING_OF) as Detail[];

export async function readRanchDetails(sql: Sql): Promise<RanchDetails> {
  const rows = await sql<{ name: string; value: string }[]>`
    select name, value from ranch_settings where name in ${sql(Object.values(SETTING_OF))}`;
  const details: RanchDetails = { ...NO_RANCH_DETAILS };
  for (const detail of DETAILS) details[detail] = rows.find((row) => row.name === SETTING_OF[detail])?.value ?? null;
  return details;
}

/** Advisory lock of a save: two Admins saving at once leave one whole set, never a mix of both. */
const RANCH_DETAILS_LOCK = 7261005;

/** Every detail in one transaction: a given one is written, one left empty is removed. */
async function writeRanchDetails(sql: Sql, fields: RanchDetailsFields): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${RANCH_DETAILS_LOCK})`;
    for (const detail of DETAILS) {
      const value = fields[detail];
      if (value === null) await tx`delete from ranch_settings where name = ${SETTING_OF[detail]}`;
      else
        await tx`
          insert into ranch_settings (name, value) values (${SETTING_OF[detail]}, ${value})
          on conflict (name) do update set value = excluded.value, updated_at = now()
          where ranch_settings.value is distinct from excluded.value`;
    }
  });
}

/**
 * [A14] [L9] `GET /api/ranch`: the ranch's details (name, address, phone, e-mail, logo) for
 * every signed-in user, which devices keep for receipts printed offline; `PUT /api/ranch`:
 * an Admin changes them (the whole set, as the form shows it).
 */
export function ranchRoutes(sql: Sql) {
  const app = new Hono<AuthedEnv>();
  app.get('/ranch', async (c) => c.json(await readRanchDetails(sql)));
  app.put('/ranch', requireRole('Admin'), validate('json', ranchDetailsInput), async (c) => {
    const fields = c.req.valid('json');
    if (fields.logoUrl !== null) {
      // The schema checked the path's shape; the photo must also be one this server holds.
      const object = await findObjectMeta(sql, fields.logoUrl.slice(OBJECT_PATH_PREFIX.length));
      if (!object) throw apiError(400, `logoUrl: ${RANCH_LOGO_MESSAGE}`, [{ path: 'logoUrl', message: RANCH_LOGO_MESSAGE }]);
    }
    await writeRanchDetails(sql, fields);
    c.header('cache-control', 'no-store');
    return c.json(await readRanchDetails(sql));
  });
  return app;
}
