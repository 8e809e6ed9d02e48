import nodemailer, { type NodemailerError } from 'nodemailer';
import type { AccountLink, MailOutcome } from '../../../shared/index.ts';
import type { MailSettings } from './settings.ts';

/** What the e-mail of a link says: whose ranch, who made the link, the link and until when. */
export type LinkMail = {
  kind: 'invitation' | 'reset';
  ranchName: string | null;
  sender: string;
  link: AccountLink;
};

/** [U17] [U18] E-mails a link; resolves with what happened, never rejects. */
export type LinkMailer = (mail: LinkMail) => Promise<MailOutcome>;

/**
 * A slow or unreachable mail server must not hold the Admin's dialog for minutes (nodemailer
 * waits up to two by default): the link is there to hand over either way.
 */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000, dnsTimeout: 10_000 };

const EXPIRY = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'short' });

export function linkMailer(settings: MailSettings): LinkMailer {
  const transport = nodemailer.createTransport({ url: settings.url, ...TIMEOUTS });
  return async (mail) => {
    const to = mail.link.user.email;
    try {
      await transport.sendMail({ from: settings.from, to: { name: fullName(mail.link.user), address: to }, ...message(mail) });
      return { sent: true, to };
    } catch (error) {
      const reason = inPlainWords(error as NodemailerError);
      console.error(`E-mailing the ${mail.kind} link to ${to} failed: ${reason} [${(error as NodemailerError).code ?? 'error'}]`);
      return { sent: false, to, error: reason };
    }
  };
}

function fullName(user: AccountLink['user']): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
}

/** One line: a subject must not carry line breaks from a typed name. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function message({ kind, ranchName, sender, link }: LinkMail): { subject: string; text: string } {
  const ranch = ranchName ? oneLine(ranchName) : 'the ranch';
  const hello = `Hello ${oneLine(link.user.firstName ?? '') || link.user.email},`;
  const until = `The link works once, until ${EXPIRY.format(new Date(link.expiresAt))} (UTC).`;
  const ignore = 'If you did not expect this e-mail, ignore it: nothing changes until the link is used.';
  if (kind === 'reset') {
    return {
      subject: `Set a new password for ${ranch}`,
      text: [
        hello,
        `${oneLine(sender)} made a link for you to set a new password for ${ranch} in Ranch. Setting it signs your account out on every device.`,
        link.url,
        until,
        ignore,
      ].join('\n\n'),
    };
  }
  return {
    subject: `Your invitation to ${ranch}`,
    text: [
      hello,
      `${oneLine(sender)} invited you to ${ranch} in Ranch, as ${link.user.role}. Open this link to choose your password and sign in:`,
      link.url,
      until,
      ignore,
    ].join('\n\n'),
  };
}

/** The mail server's own words, when it gave any (first line, kept short). */
function serverSaid(error: NodemailerError): string {
  const said = error.response?.split(/\r?\n/)[0]?.trim();
  return said ? ` It said: ${said.slice(0, 200)}` : '';
}

/** Why the e-mail did not go, for the Admin; never the URL (it may hold the password). */
export function inPlainWords(error: NodemailerError): string {
  switch (error.code) {
    case 'EDNS':
      return "The mail server's name was not found. Check RANCH_SMTP_URL.";
    case 'ETIMEDOUT':
      return 'The mail server did not answer in time.';
    case 'ETLS':
      return 'A secure connection to the mail server could not be made.';
    case 'EAUTH':
    case 'ENOAUTH':
      return `The mail server refused the user name or password of RANCH_SMTP_URL.${serverSaid(error)}`;
    case 'EENVELOPE':
      return `The mail server refused the sender or the recipient's address.${serverSaid(error)}`;
    case 'ECONNECTION':
    case 'ESOCKET':
      if (error.originalCode === 'ECONNREFUSED' || /ECONNREFUSED/.test(error.message)) {
        return 'The mail server refused the connection. Check RANCH_SMTP_URL and that the server is running.';
      }
      return 'The connection to the mail server failed.';
    default:
      return error.response ? `The mail server refused the message.${serverSaid(error)}` : 'The e-mail could not be sent.';
  }
}
