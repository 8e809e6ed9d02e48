import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Sql } from '../db/client.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';
import type { AppEnv } from '../http/types.ts';
import type { DocumentRegistry } from '../sync/registry.ts';
import { setupInput } from '../../../shared/index.ts';
import { seedDefaultLookups } from '../api/default-lookups.ts';
import { noticePage, setupPage, type SetupValues } from './account-pages.ts';
import { setSessionCookie } from './cookie.ts';
import { beginTokenAttempt, tokenAccepted, tooManyLinksMessage } from './link-limits.ts';
import { createSession, generateSessionToken } from './sessions.ts';
import { createOwner, hasAdmin, type SetupToken } from './setup.ts';

const MAX_FORM_BYTES = 16 * 1024;
const SET_UP_ALREADY = 'This ranch is set up already: its owner signs in, and invites the team from the Users screen.';
const WRONG_ADDRESS = 'This setup address is not valid. Use the address the server printed when it started (a restart prints a new one).';

export type SetupOptions = { sql: Sql; registry: DocumentRegistry; setup: SetupToken; trustProxy: ProxyTrust };

/**
 * [A14] First run: `GET /api/setup/:token` shows the form, `POST /api/setup` makes the
 * owner's Admin account and the ranch's name, fills the empty lookup lists ([L8]), signs the
 * owner in and opens the app. Refused once an Admin exists.
 */
export function setupRoutes({ sql, registry, setup, trustProxy }: SetupOptions) {
  const app = new Hono<AppEnv>();

  /** Undefined when the token may be used; else the page to answer. */
  async function refuse(c: Context<AppEnv>, token: unknown): Promise<Response | undefined> {
    if (!setup.isOpen || (await hasAdmin(sql))) {
      setup.close();
      return c.html(noticePage('Ranch is set up', SET_UP_ALREADY), 410);
    }
    const wait = await beginTokenAttempt(sql, c, trustProxy);
    if (wait !== undefined) {
      c.header('retry-after', String(wait));
      return c.html(noticePage('Set up your ranch', tooManyLinksMessage(wait)), 429);
    }
    if (!setup.matches(token)) return c.html(noticePage('Set up your ranch', WRONG_ADDRESS), 404);
    await tokenAccepted(sql, c, trustProxy);
    return undefined;
  }

  app.get('/setup/:token', async (c) => {
    const token = c.req.param('token');
    return (await refuse(c, token)) ?? c.html(setupPage({ token }));
  });

  const formLimit = bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: (c) => c.html(noticePage('Set up your ranch', 'The form was too large.'), 413, { connection: 'close' }),
  });

  app.post('/setup', formLimit, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const refused = await refuse(c, form.token);
    if (refused) return refused;
    const token = form.token as string;
    const values = typedValues(form);
    const parsed = setupInput.safeParse(form);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return c.html(setupPage({ token, values, error: issue?.message ?? 'Check the form.' }), 400);
    }
    const { ranchName, firstName, lastName, email, password } = parsed.data;
    const result = await createOwner(sql, { ranchName, firstName, lastName, email, password });
    if (result.kind === 'taken') {
      setup.close();
      return c.html(noticePage('Ranch is set up', SET_UP_ALREADY), 410);
    }
    if (result.kind === 'email') {
      return c.html(setupPage({ token, values, error: `An account with the e-mail ${email} already exists.` }), 409);
    }
    setup.close();
    const sessionToken = generateSessionToken();
    const session = await createSession(sql, sessionToken, result.userId);
    setSessionCookie(c, sessionToken, session.expiresAt, trustProxy);
    try {
      await seedDefaultLookups(registry, result.userId);
    } catch (error) {
      console.error('The default lookup lists could not be saved at setup:', error);
      return c.html(
        noticePage(
          'Ranch is set up',
          'Your account is ready, but the default breeds, colors, genders and statuses could not be saved: add them in Administration.',
          { href: '/admin', text: 'Open Administration' },
        ),
        201,
      );
    }
    return c.redirect('/', 303);
  });

  return app;
}

/** What the person typed (never the passwords), to show the form again with it. */
function typedValues(form: Record<string, unknown>): SetupValues {
  const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 254) : '');
  return { ranchName: text(form.ranchName), firstName: text(form.firstName), lastName: text(form.lastName), email: text(form.email) };
}
