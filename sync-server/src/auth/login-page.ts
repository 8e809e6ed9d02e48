import { createHash } from 'node:crypto';
import { html, raw } from 'hono/html';

/** The sign-in page's own styles, inline so the page needs nothing else. */
const LOGIN_STYLE = `
      body { font-family: system-ui, sans-serif; background: #f5f1ea; color: #2b2118; margin: 0;
             min-height: 100vh; display: grid; place-items: center; }
      main { background: #fff; padding: 2rem; border-radius: 1rem; width: min(22rem, 90vw);
             box-shadow: 0 4px 24px rgb(0 0 0 / 0.08); }
      h1 { margin: 0; font-size: 1.75rem; } p.sub { margin: 0.25rem 0 1.5rem; color: #6b5a48; }
      label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
      input { width: 100%; box-sizing: border-box; padding: 0.65rem; font-size: 1rem;
              border: 1px solid #c9b9a6; border-radius: 0.5rem; }
      button { margin-top: 1.5rem; width: 100%; padding: 0.75rem; font-size: 1rem; font-weight: 600;
               background: #8a5a2b; color: #fff; border: 0; border-radius: 0.5rem; cursor: pointer; }
      .error { background: #fde8e8; color: #9b1c1c; padding: 0.75rem; border-radius: 0.5rem; margin-top: 1rem; }
      a.back { display: block; text-align: center; margin-top: 1rem; color: #8a5a2b; }
`;

/** The Content-Security-Policy source that allows exactly this inline style (both pages') and no other. */
export const LOGIN_STYLE_SOURCE = `'sha256-${createHash('sha256').update(LOGIN_STYLE).digest('base64')}'`;

/**
 * The sign-in page: plain HTML that works without JavaScript, labels tied to inputs.
 * `html` escapes every interpolated value.
 */
export function loginPage(options: { email?: string; error?: string }) {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Sign in · Ranch</title>
    <style>${raw(LOGIN_STYLE)}</style>
  </head>
  <body>
    <main>
      <h1>Ranch</h1>
      <p class="sub">Horse Ranch Management System</p>
      ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
      <form method="post" action="/api/login">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}" />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">Sign In</button>
      </form>
    </main>
  </body>
</html>`;
}

/**
 * [A6] What `GET /api/logout` answers: a question, never a sign-out (another site could
 * link or embed that address). Signing out is the form's POST, which the Origin check guards.
 */
export function logoutPage() {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Sign out · Ranch</title>
    <style>${raw(LOGIN_STYLE)}</style>
  </head>
  <body>
    <main>
      <h1>Ranch</h1>
      <p class="sub">Sign out of Ranch on this device?</p>
      <form method="post" action="/api/logout">
        <button type="submit">Sign Out</button>
      </form>
      <a class="back" href="/">Back to Ranch</a>
    </main>
  </body>
</html>`;
}
