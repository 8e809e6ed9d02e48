import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type ApiClient } from './support/client.ts';
import { databaseKinds } from './support/databases.ts';
import { ADMIN, startTestServer, type TestServer } from './support/server.ts';
import { startSmtpReceiver } from './support/smtp-receiver.ts';

type Link = {
  url: string;
  expiresAt: string;
  user: { id: string; email: string };
  mail?: { sent: boolean; to: string; error?: string };
};
const FROM = 'Sunny Acres <office@sunny-acres.test>';

/** A port nothing listens on: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

describe.each(databaseKinds())('[U17] [U18] account links by e-mail (%s)', (kind) => {
  let receiver: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let server: TestServer;
  let admin: ApiClient;
  let counter = 0;

  beforeAll(async () => {
    receiver = await startSmtpReceiver();
    server = await startTestServer(kind, { mail: { url: `smtp://user:pass@127.0.0.1:${receiver.port}`, from: FROM } });
    admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    await server.db.sql`update users set first_name = 'Maria', last_name = 'Lopez' where email = ${ADMIN.email}`;
    await server.db.sql`
      insert into ranch_settings (name, value) values ('name', 'Sunny Acres Ranch')
      on conflict (name) do update set value = excluded.value`;
  });
  afterAll(async () => {
    await server.destroy();
    await receiver.close();
  });

  const invite = async (as: ApiClient, domain = 'ranch.test'): Promise<{ status: number; link: Link }> => {
    const response = await as.request('/api/users/invitations', {
      method: 'POST',
      json: { email: `person${++counter}@${domain}`, firstName: 'Sam', lastName: 'Ortiz', role: 'Staff' },
    });
    return { status: response.status, link: await response.json() };
  };

  it('[U17] an invitation is e-mailed to the person: the ranch, who invited them, the link and its expiry', async () => {
    const { status, link } = await invite(admin);
    expect(status).toBe(201);
    expect(link.mail).toEqual({ sent: true, to: link.user.email });
    const mail = receiver.received.find((each) => each.to.includes(link.user.email));
    expect(mail).toBeDefined();
    expect(mail?.to).toEqual([link.user.email]);
    expect(mail?.from).toBe('office@sunny-acres.test');
    expect(mail?.raw).toMatch(/^From: Sunny Acres <office@sunny-acres\.test>$/m);
    expect(mail?.raw).toMatch(new RegExp(`^To: Sam Ortiz <${link.user.email.replaceAll('.', '\\.')}>$`, 'm'));
    expect(mail?.subject).toBe('Your invitation to Sunny Acres Ranch');
    expect(mail?.text).toContain('Hello Sam,');
    expect(mail?.text).toContain('Maria Lopez invited you to Sunny Acres Ranch in Ranch, as Staff.');
    expect(mail?.text.split('\r\n')).toContain(link.url);
    const until = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'short' }).format(
      new Date(link.expiresAt),
    );
    expect(mail?.text).toContain(`The link works once, until ${until} (UTC).`);
    // The e-mailed link is the link: it opens the page to set the password.
    expect((await fetch(link.url)).status).toBe(200);
  });

  it('[U18] a password link is e-mailed too, saying it signs the account out everywhere', async () => {
    const { link: invited } = await invite(admin);
    await fetch(`${server.url}/api/account-link`, {
      method: 'POST',
      body: new URLSearchParams({
        token: invited.url.split('/').pop() ?? '',
        password: 'their own password',
        confirm: 'their own password',
      }),
      redirect: 'manual',
    });
    const response = await admin.request(`/api/users/${invited.user.id}/link`, { method: 'POST', json: {} });
    expect(response.status).toBe(201);
    const link: Link = await response.json();
    expect(link.mail).toEqual({ sent: true, to: invited.user.email });
    const mails = receiver.received.filter((each) => each.to.includes(invited.user.email));
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe('Set a new password for Sunny Acres Ranch');
    expect(mails[1]?.text).toContain('signs your account out on every device');
    expect(mails[1]?.text.split('\r\n')).toContain(link.url);
  });

  it('[U17] a recipient the mail server refuses: the link is made and works, the answer says why no e-mail went', async () => {
    const before = receiver.received.length;
    const { status, link } = await invite(admin, 'refused.test');
    expect(status).toBe(201);
    expect(link.mail).toMatchObject({ sent: false, to: link.user.email });
    expect(link.mail?.error).toContain("The mail server refused the sender or the recipient's address.");
    expect(link.mail?.error).toContain('No such mailbox here');
    expect(receiver.received.length).toBe(before);
    expect((await fetch(link.url)).status).toBe(200);
  });
});

describe('[U17] [U18] an unusable mail server never fails the link', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.destroy());

  it.each([
    ['refuses the connection', async () => `smtp://127.0.0.1:${await closedPort()}`, 'The mail server refused the connection.'],
    [
      'refuses the password',
      async () => `smtp://user:wrong@127.0.0.1:${(await startSmtpReceiverOnce()).port}`,
      'The mail server refused the user name or password of RANCH_SMTP_URL.',
    ],
  ])('a mail server that %s: 201, the link works, the answer says the e-mail failed', async (_, url, words) => {
    await server?.destroy();
    server = await startTestServer('pglite', { mail: { url: await url(), from: FROM } });
    const admin = await signIn(server.url, ADMIN.email, ADMIN.password);
    const response = await admin.request('/api/users/invitations', {
      method: 'POST',
      json: { email: 'sam@ranch.test', firstName: 'Sam', lastName: 'Ortiz', role: 'Viewer' },
    });
    expect(response.status).toBe(201);
    const link: Link = await response.json();
    expect(link.mail).toMatchObject({ sent: false, to: 'sam@ranch.test' });
    expect(link.mail?.error).toContain(words);
    expect(link.mail?.error).not.toContain('wrong');
    expect((await fetch(link.url)).status).toBe(200);
  });
});

const receivers: Awaited<ReturnType<typeof startSmtpReceiver>>[] = [];
async function startSmtpReceiverOnce() {
  const receiver = await startSmtpReceiver();
  receivers.push(receiver);
  return receiver;
}
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
});
