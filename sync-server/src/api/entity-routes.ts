import { Hono } from 'hono';
import type { z } from 'zod';
import { requireWriter } from '../auth/middleware.ts';
import type { AuthedEnv } from '../http/types.ts';
import { validate } from '../http/validate.ts';
import { entityIdParam } from '../http/params.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import {
  DEVICE_TIME_FIELD,
  deleteWithDependents,
  getEntity,
  newId,
  writeEntity,
  type Collection,
  type EntityFields,
} from '../../../shared/index.ts';
import { writeThroughDoc } from './doc-writes.ts';
import { checkReferences, refuseIfReferenced, requireEntity } from './entity-writes.ts';

export type EntityRouteOptions = {
  collection: Collection;
  schema: z.ZodType<Record<string, unknown>>;
  /** Stamp `createdAt` on creation (owners, sales, payments). */
  stamped?: boolean;
  update?: boolean;
  remove?: boolean;
};

/**
 * POST (and optionally PUT /:id, DELETE /:id) for one collection, each a server-side Y.Doc
 * transaction through the document host, like a device's write. Reads are per resource.
 */
export function entityWriteRoutes(registry: DocumentRegistry, options: EntityRouteOptions) {
  const { collection, schema } = options;
  const app = new Hono<AuthedEnv>();
  const path = `/${collection}`;

  app.post(path, requireWriter, validate('json', schema), async (c) => {
    const input = c.req.valid('json') as Record<string, unknown>;
    const id = newId();
    const record = { id, ...input, ...(options.stamped ? { createdAt: new Date().toISOString() } : {}) } as EntityFields;
    await writeThroughDoc(registry, c.get('user').id, (doc) => {
      checkReferences(doc, collection, record);
      writeEntity(doc, collection, id, record);
    });
    return c.json(record, 201);
  });

  if (options.update) {
    app.put(`${path}/:id`, requireWriter, validate('param', entityIdParam), validate('json', schema), async (c) => {
      const { id } = c.req.valid('param');
      const input = c.req.valid('json') as EntityFields;
      let saved: EntityFields = {};
      await writeThroughDoc(registry, c.get('user').id, (doc) => {
        requireEntity(doc, collection, id);
        checkReferences(doc, collection, input);
        writeEntity(doc, collection, id, input);
        // The device's time of its last change ([T5]) is for the history only: REST reads never show it.
        const { [DEVICE_TIME_FIELD]: _deviceTime, ...fields } = getEntity(doc, collection, id) ?? {};
        saved = fields;
      });
      return c.json(saved);
    });
  }

  if (options.remove) {
    app.delete(`${path}/:id`, requireWriter, validate('param', entityIdParam), async (c) => {
      const { id } = c.req.valid('param');
      await writeThroughDoc(registry, c.get('user').id, (doc, host) => {
        requireEntity(doc, collection, id);
        refuseIfReferenced(doc, collection, id, host.ledgerSales);
        deleteWithDependents(doc, collection, id);
      });
      return c.body(null, 204);
    });
  }

  return app;
}
