import { html } from 'hono/html';
import { accountPage as page } from './login-page.ts';

/**
 * The first-run page ([A14]) and the account-link page ([U17], [U18]): plain HTML forms in
 * the sign-in page's look, no script. `html` escapes every interpolated value.
 */
const error = (text: string | undefined) => (text ? html`<p class="error" role="alert">${text}</p>` : '');

export type SetupValues = { ranchName?: string; firstName?: string; lastName?: string; email?: string };

export function setupPage(options: { token: string; values?: SetupValues; error?: string }) {
  const v = options.values ?? {};
  return page(
    'Set up your ranch',
    html`<p class="sub">Set up your ranch: its name and your owner account.</p>
      ${error(options.error)}
      <form method="post" action="/api/setup">
        <input type="hidden" name="token" value="${options.token}" />
        <label for="ranchName">Ranch name</label>
        <input id="ranchName" name="ranchName" required maxlength="120" autocomplete="organization" value="${v.ranchName ?? ''}" />
        <label for="firstName">First name</label>
        <input id="firstName" name="firstName" required maxlength="120" autocomplete="given-name" value="${v.firstName ?? ''}" />
        <label for="lastName">Last name</label>
        <input id="lastName" name="lastName" required maxlength="120" autocomplete="family-name" value="${v.lastName ?? ''}" />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" required autocomplete="username" value="${v.email ?? ''}" />
        <label for="password">Password (at least 8 characters)</label>
        <input id="password" name="password" type="password" required minlength="8" autocomplete="new-password" />
        <label for="confirm">Password again</label>
        <input id="confirm" name="confirm" type="password" required minlength="8" autocomplete="new-password" />
        <button type="submit">Create Ranch</button>
      </form>
      <p class="sub">The ranch starts with common breeds, colors, genders and statuses; change them any time in Administration.</p>`,
  );
}

export function linkPage(options: { token: string; kind: 'invitation' | 'reset'; email: string; name: string; error?: string }) {
  const intro =
    options.kind === 'invitation'
      ? html`Welcome, ${options.name}. Choose a password for ${options.email} to join the ranch.`
      : html`Choose a new password for ${options.email}.`;
  return page(
    options.kind === 'invitation' ? 'Join the ranch' : 'New password',
    html`<p class="sub">${intro}</p>
      ${error(options.error)}
      <form method="post" action="/api/account-link">
        <input type="hidden" name="token" value="${options.token}" />
        <input type="hidden" name="email" autocomplete="username" value="${options.email}" />
        <label for="password">Password (at least 8 characters)</label>
        <input id="password" name="password" type="password" required minlength="8" autocomplete="new-password" />
        <label for="confirm">Password again</label>
        <input id="confirm" name="confirm" type="password" required minlength="8" autocomplete="new-password" />
        <button type="submit">Set Password</button>
      </form>`,
  );
}

/** A page that only says something: a refused link, a ranch already set up. */
export function noticePage(title: string, message: string, link = { href: '/api/login', text: 'Go to sign-in' }) {
  return page(
    title,
    html`<p class="sub">${title}</p>
      <p class="error" role="alert">${message}</p>
      <a class="back" href="${link.href}">${link.text}</a>`,
  );
}
