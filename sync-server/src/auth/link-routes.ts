import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Sql } from '../db/client.ts';
import type { ProxyTrust } from '../http/proxy-trust.ts';
import type { AppEnv } from '../http/types.ts';
import { linkPasswordInput } from '../../../shared/index.ts';
import { linkPage, noticePage } from './account-pages.ts';
import { readLink, spendLink, type LinkState } from './account-links.ts';
import { setSessionCookie } from './cookie.ts';
import { beginTokenAttempt, tokenAccepted, tooManyLinksMessage } from './link-limits.ts';
import { isLinkToken } from './link-token.ts';
import { createSession, generateSessionToken } from './sessions.ts';

const MAX_FORM_BYTES = 16 * 1024;
const TITLE = 'Account link';
export const LINK_REFUSED: Record<Exclude<LinkState['kind'], 'valid'>, string> = {
  used: 'This link was used already: it works once. Sign in with your password, or ask an Admin for a new link.',
  expired: 'This link has expired. Ask an Admin for a new one.',
  unknown: 'This link is not valid. Check that it was copied whole, or ask an Admin for a new one.',
};

export type LinkOptions = {
  trustProxy: ProxyTrust;
  /** Called after a link ended an account's sessions, so its open sync connections close. */
  onSessionsEnded?: (userId: string) => void;
};

/**
 * [U17] [U18] `GET /api/account-link/:token` shows the password form of an invitation or
 * a reset link; `POST /api/account-link` sets the password (the link is then used), ends
 * the account's other sessions, signs the person in and opens the app.
 */
export function linkRoutes(sql: Sql, { trustProxy, onSessionsEnded }: LinkOptions) {
  const app = new Hono<AppEnv>();

  /** The valid link's state, or the page refusing it. */
  async function open(c: Context<AppEnv>, token: unknown): Promise<Response | (LinkState & { kind: 'valid' })> {
    const wait = await beginTokenAttempt(sql, c, trustProxy);
    if (wait !== undefined) {
      c.header('retry-after', String(wait));
      return c.html(noticePage(TITLE, tooManyLinksMessage(wait)), 429);
    }
    const state: LinkState = isLinkToken(token) ? await readLink(sql, token) : { kind: 'unknown' };
    if (state.kind !== 'valid') return c.html(noticePage(TITLE, LINK_REFUSED[state.kind]), state.kind === 'unknown' ? 404 : 410);
    await tokenAccepted(sql, c, trustProxy);
    return state;
  }

  app.get('/account-link/:token', async (c) => {
    const token = c.req.param('token');
    const state = await open(c, token);
    if (state instanceof Response) return state;
    return c.html(linkPage({ token, kind: state.linkKind, email: state.email, name: state.name }));
  });

  const formLimit = bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: (c) => c.html(noticePage(TITLE, 'The form was too large.'), 413, { connection: 'close' }),
  });

  app.post('/account-link', formLimit, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const state = await open(c, form.token);
    if (state instanceof Response) return state;
    const token = form.token as string;
    const parsed = linkPasswordInput.safeParse(form);
    if (!parsed.success) {
      const error = parsed.error.issues[0]?.message ?? 'Check the password.';
      return c.html(linkPage({ token, kind: state.linkKind, email: state.email, name: state.name, error }), 400);
    }
    const used = await spendLink(sql, token, parsed.data.password);
    if (used.kind === 'refused') {
      // Used or expired between the check and now (another submit was first).
      const now = await readLink(sql, token);
      return c.html(noticePage(TITLE, LINK_REFUSED[now.kind === 'valid' ? 'used' : now.kind]), 410);
    }
    onSessionsEnded?.(used.userId);
    const sessionToken = generateSessionToken();
    const session = await createSession(sql, sessionToken, used.userId);
    setSessionCookie(c, sessionToken, session.expiresAt, trustProxy);
    return c.redirect('/', 303);
  });

  return app;
}
