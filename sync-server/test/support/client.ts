import type { Role } from '../../../shared/index.ts';

/** A signed-in HTTP client of a test server: fetch with the session cookie. */
export type ApiClient = {
  cookie: string;
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
};

export async function signIn(baseUrl: string, email: string, password: string): Promise<ApiClient> {
  const response = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    body: new URLSearchParams({ email, password }),
    redirect: 'manual',
  });
  if (response.status !== 303) throw new Error(`Sign-in failed with ${response.status}`);
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return client(baseUrl, cookie);
}

export function client(baseUrl: string, cookie: string): ApiClient {
  return {
    cookie,
    request(path, init = {}) {
      const headers = new Headers(init.headers);
      if (cookie) headers.set('cookie', cookie);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(`${baseUrl}${path}`, { ...init, headers, body, redirect: 'manual' });
    },
  };
}

/** POSTs `body` to `path` as `as`; the new record's id (throws unless the answer is 201). */
export async function createdId(as: ApiClient, path: string, body: unknown): Promise<string> {
  const response = await as.request(path, { method: 'POST', json: body });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** A horse named `name` made by `as` through REST, with a breed (Arab), color (Bay) and gender (Mare) made for it: its id. */
export async function createdHorse(as: ApiClient, name: string): Promise<string> {
  const lookup = (path: string, lookupName: string) => createdId(as, path, { name: lookupName });
  const [breedId, colorId, genderId] = [
    await lookup('/api/breeds', 'Arab'),
    await lookup('/api/colors', 'Bay'),
    await lookup('/api/genders', 'Mare'),
  ];
  return createdId(as, '/api/horses', { name, breedId, colorId, genderId });
}

let counter = 0;

/** Creates an account through the admin API and signs it in. */
export async function signInAs(baseUrl: string, admin: ApiClient, role: Role): Promise<ApiClient> {
  const email = `${role.toLowerCase()}${++counter}@ranch.test`;
  const password = 'a long enough password';
  const response = await admin.request('/api/users', {
    method: 'POST',
    json: { email, firstName: role, lastName: 'Tester', role, password },
  });
  if (response.status !== 201) throw new Error(`Creating ${role} failed: ${response.status} ${await response.text()}`);
  return signIn(baseUrl, email, password);
}
