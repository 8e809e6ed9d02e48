import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { ErrorBody } from '../../../shared/index.ts';

export function apiError(status: ContentfulStatusCode, message: string, issues?: ErrorBody['issues']): HTTPException {
  const body: ErrorBody = issues ? { message, issues } : { message };
  return new HTTPException(status, { res: Response.json(body, { status }), message });
}

export function validationIssues(error: z.ZodError): ErrorBody['issues'] {
  return error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
}

/** 400 whose message is the first problem, so the client's "status: body" error ([X3]) reads well. */
export function invalidInput(error: z.ZodError): HTTPException {
  const issues = validationIssues(error) ?? [];
  const first = issues[0];
  return apiError(400, first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Invalid input', issues);
}

const UNREACHABLE_DATABASE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01', // admin_shutdown
  '57P03', // cannot_connect_now
]);

/** True for errors saying Postgres cannot be reached right now (not a bad request). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNREACHABLE_DATABASE.has(code);
}

function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (error as Error | null)?.name === 'PostgresError' && typeof code === 'string' && code.startsWith('22');
}

/** Mounted once: expected failures keep their status; anything else is logged and hidden. */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof HTTPException) {
    // Hono's own (e.g. the validator's "Malformed JSON in request body") carry no body: give them ours.
    if (error.res) return error.getResponse();
    return c.json({ message: error.message || 'Bad Request' } satisfies ErrorBody, error.status as ContentfulStatusCode);
  }
  if (isDataException(error)) {
    // Postgres refused a value (SQLSTATE class 22: bad encoding, out of range …): the
    // request's fault, and nothing was written.
    return c.json({ message: 'Invalid input: a value cannot be stored' } satisfies ErrorBody, 400);
  }
  if (isDatabaseUnavailable(error)) {
    // Nothing was changed; the request can be repeated once the database is back.
    return c.json({ message: 'Service Unavailable: the database cannot be reached; try again shortly.' } satisfies ErrorBody, 503, {
      'retry-after': '5',
    });
  }
  console.error('Unhandled error', c.req.method, loggedPath(c.req.path), error);
  return c.json({ message: 'Internal Server Error' } satisfies ErrorBody, 500);
}

/** Paths whose last segment is a secret (an upload URL's token, the setup address's [A14], an account link's [U17]), logged without it. */
const SECRET_TAILS = ['/api/objects/upload/', '/api/setup/', '/api/account-link/'];

/** [I3] The path as logs show it: an upload URL's token (a user's upload right) is left out. */
export function loggedPath(path: string): string {
  const secret = SECRET_TAILS.find((prefix) => path.startsWith(prefix) && path.length > prefix.length);
  return secret ? `${secret}<token>` : path;
}
