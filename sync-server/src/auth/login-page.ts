import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';

/**
 * [A4] The sign-in page's own styles (the setup and account-link pages' too), inline so a
 * page needs nothing else: the landing screen's look (its logo, the ranch theme's cream ground, saddle-brown primary and system font; docs/design.md), and no
 * wider than a phone's screen (border-box sizing; the card shrinks with the page).
 */
export const LOGIN_STYLE = `
      *, *::before, *::after { box-sizing: border-box; }
      body { font-family: ui-sans-serif, system-ui, sans-serif; background: #f6f2ec; color: #17110c;
             margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1rem; }
      main { background: #fffdf9; padding: 2rem 1.5rem; border-radius: 1rem; width: 100%; max-width: 24rem;
             box-shadow: 0 4px 24px rgb(0 0 0 / 0.08); text-align: center; }
      img { display: block; margin: 0 auto 1rem; border-radius: 1rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.15); }
      h1 { margin: 0; font-size: 2rem; } p.sub { margin: 0.25rem 0 1.5rem; color: #5c4636; }
      form { text-align: left; }
      label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
      input { width: 100%; padding: 0.65rem; font-size: 1rem; border: 1px solid #8c7660; border-radius: 0.5rem; }
      input:focus { outline: 2px solid #7c4a1e; outline-offset: 1px; }
      button { margin-top: 1.5rem; width: 100%; padding: 0.75rem; font-size: 1rem; font-weight: 600;
               background: #7c4a1e; color: #fffaf3; border: 0; border-radius: 0.5rem; cursor: pointer; }
      .error { background: #fde8e8; color: #9b1c1c; padding: 0.75rem; border-radius: 0.5rem; margin-top: 1rem; text-align: left; }
      a.back { display: block; margin-top: 1rem; color: #7c4a1e; }
`;

/** The Content-Security-Policy source that allows exactly this inline style (both pages') and no other. */
export const LOGIN_STYLE_SOURCE = `'sha256-${createHash('sha256').update(LOGIN_STYLE).digest('base64')}'`;

/**
 * A page in the sign-in page's look (sign-in, sign-out, first run, account links): plain
 * HTML, no script. `html` escapes every interpolated value.
 */
export function accountPage(title: string, body: ReturnType<typeof html>) {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title} · Ranch</title>
    <style>${raw(LOGIN_STYLE)}</style>
  </head>
  <body>
    <main>
      <img src="/icon-192.png" alt="" width="72" height="72" />
      <h1>Ranch</h1>
      ${body}
    </main>
  </body>
</html>`;
}

/** The sign-in page: labels tied to inputs, works without JavaScript. */
export function loginPage(options: { email?: string; error?: string }) {
  return accountPage(
    'Sign in',
    html`<p class="sub">Horse Ranch Management System</p>
      ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
      <form method="post" action="/api/login">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}" />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign In</button>
      </form>`,
  );
}

/**
 * [A6] What `GET /api/logout` answers: a question, never a sign-out (another site could
 * link or embed that address). Signing out is the form's POST, which the Origin check guards.
 */
export function logoutPage() {
  return accountPage(
    'Sign out',
    html`<p class="sub">Sign out of Ranch on this device?</p>
      <form method="post" action="/api/logout">
        <button type="submit">Sign Out</button>
      </form>
      <a class="back" href="/">Back to Ranch</a>`,
  );
}
